// A replicated server (Litestream to a file replica) under eight agents posting as fast as they
// are answered, with `/healthz` probed every 5 ms beside them: whether a wait for the disk or for
// Litestream's write lock holds the request thread (every request) or only the writes.
//   SECS=35 bun bench/replica-probe.ts
// Prints one JSON line: writes, their p99 and max (ms), probes, /healthz p99 and max (ms). To
// compare a build before a change, run the same file from a `git worktree` of that commit.
// Needs Litestream where the replication tests find it (npm's @flydotio/litestream, or PATH).
import { join } from 'node:path';
import { cleanUp, post, register, replicating, start, tempDir } from '../test/ops/replica-harness.ts';

const seconds = Number(process.env.SECS ?? 20);
const server = await start(tempDir(), { SVC_REPLICA_URL: `file://${join(tempDir(), 'replica')}` });
await replicating(server);
const key = await register(server.url, 'prober');
let stop = false;
const writes: number[] = [];
const probes: number[] = [];
const writer = async (w: number) => {
  for (let i = 0; !stop; i++) {
    const t = performance.now();
    await (await post(server.url, key, `probe ${w} ${i}`)).arrayBuffer();
    writes.push(performance.now() - t);
  }
};
const prober = async () => {
  while (!stop) {
    const t = performance.now();
    await (await fetch(`${server.url}/healthz`)).arrayBuffer();
    probes.push(performance.now() - t);
    await Bun.sleep(5);
  }
};
const running = [...Array.from({ length: 8 }, (_, i) => writer(i)), prober()];
await Bun.sleep(seconds * 1000);
stop = true;
await Promise.all(running);
server.proc.kill('SIGTERM');
await server.proc.exited;
const at = (a: number[], f: number) => Number([...a].sort((x, y) => x - y)[Math.floor(f * (a.length - 1))]!.toFixed(1));
console.log(
  JSON.stringify({
    seconds,
    writes: writes.length,
    write_p99_ms: at(writes, 0.99),
    write_max_ms: at(writes, 1),
    probes: probes.length,
    healthz_p99_ms: at(probes, 0.99),
    healthz_max_ms: at(probes, 1),
  }),
);
cleanUp();
