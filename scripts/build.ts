// `bun run build`: one self-contained executable, dist/svc. Schema files are embedded through
// their text imports; every worker in workers/ is compiled in as an extra entry point.
import { existsSync, readdirSync } from 'node:fs';

const workers = (existsSync('workers') ? readdirSync('workers') : []).filter((f) => f.endsWith('.ts')).map((f) => `workers/${f}`);
const result = await Bun.build({
  entrypoints: ['src/main.ts', ...workers],
  compile: { outfile: 'dist/svc' },
  minify: true,
  sourcemap: 'linked',
  target: 'bun',
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(JSON.stringify({ built: 'dist/svc', workers }));
