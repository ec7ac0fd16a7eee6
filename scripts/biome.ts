// Runs Biome (formatter and linter) from this platform's binary package. The project depends on
// @biomejs/cli-linux-x64 / -arm64 as optional dependencies instead of the @biomejs/biome wrapper:
// the wrapper lists every platform's binary, and a registry that carries only the Linux ones
// (like the one CI installs from) cannot satisfy `npm ci` with it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const pkg = `@biomejs/cli-${process.platform}-${process.arch}`;
const bin = resolve(import.meta.dir, '..', 'node_modules', pkg, process.platform === 'win32' ? 'biome.exe' : 'biome');
if (!existsSync(bin)) {
  console.error(`biome: no binary for ${process.platform}-${process.arch}; install ${pkg} (npm install --no-save ${pkg}@2.6.8)`);
  process.exit(2);
}
const run = Bun.spawnSync([bin, ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'inherit'] });
process.exit(run.exitCode ?? 1);
