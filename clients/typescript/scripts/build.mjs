// `npm run build` (run by `npm pack` before it packs): compiles src/ to dist/ (ES modules and their
// .d.ts, tsconfig.build.json) and copies openapi-fetch and what it needs into this folder's
// node_modules, where npm pack takes them as bundled dependencies. The tarball then installs into
// an empty folder with no registry at all (`npm install ./svc-client-1.0.0.tgz --offline`).
// Plain JavaScript for Node: building the package needs no Bun.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const require = createRequire(join(root, 'package.json'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// tsc rewrites `./x.ts` to `./x.js` in the JavaScript only: the declarations get the same paths,
// so that a consumer's tsc under any module resolution finds ./x.d.ts beside them.
for (const file of readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.d.ts'))) {
  const path = join(root, 'dist', file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/(from '\.\/[\w-]+)\.ts'/g, "$1.js'"));
}

/** The folder of an installed package, found as Node resolves it from `from`. */
function packageDir(name, from) {
  let dir = dirname(createRequire(join(from, 'package.json')).resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) dir = dirname(dir);
  return dir;
}

// Each bundled package and, transitively, its own dependencies, side by side (npm's flat layout).
// A package already there at the same version is kept; a new one is copied beside and renamed into
// place, so that a type-check of this folder running meanwhile sees either the whole package or none
// (and then resolves the repository's own copy, the same version).
const bundled = join(root, 'node_modules');
mkdirSync(bundled, { recursive: true });
const queue = pkg.bundleDependencies.map((name) => [name, root]);
const copied = new Set();
while (queue.length > 0) {
  const [name, from] = queue.shift();
  if (copied.has(name)) continue;
  const dir = packageDir(name, from);
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const wanted = pkg.dependencies?.[name];
  if (from === root && wanted && meta.version !== wanted)
    throw new Error(`${name} ${meta.version} is installed; package.json pins ${wanted} (a copy bundled earlier? delete node_modules here and build again)`);
  const target = join(bundled, name);
  const present = existsSync(join(target, 'package.json')) ? JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')).version : null;
  if (dir !== target && present !== meta.version) {
    const staging = join(bundled, `.staging-${process.pid}-${name}`);
    cpSync(dir, staging, { recursive: true, filter: (src) => !src.slice(dir.length).includes('/node_modules') });
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  }
  copied.add(name);
  for (const dep of Object.keys(meta.dependencies ?? {})) queue.push([dep, dir]);
}
console.log(`built dist/; bundled ${[...copied].join(', ')}`);
