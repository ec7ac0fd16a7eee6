// Everything that renders the documentation, in one module the routes load on first use
// (src/docs/routes.ts): marked, @elysiajs/openapi and the JSON Schema conversion stay out of the
// start-up.
export { renderContents, renderGuidePage } from './contents.ts';
export { guides } from './guides.ts';
export { docsHeader } from './header.ts';
export { buildOpenApi } from './openapi.ts';
export * from './render.ts';
export { renderSearch, searchIndex } from './search.ts';
export { renderSkill } from './skill.ts';
