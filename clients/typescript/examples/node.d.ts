// The little of node:fs the example uses (Node, Bun and Deno all have it): the package type-checks
// without Node's types, because the client itself needs nothing but fetch.
declare module 'node:fs' {
  export function existsSync(path: string): boolean;
  export function readFileSync(path: string, encoding: 'utf8'): string;
  export function writeFileSync(path: string, data: string, options?: { mode?: number }): void;
}
