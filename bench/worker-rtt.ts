// What a write would pay to run on a thread of its own: `node_modules/.bin/bun bench/worker-rtt.ts`.
//
// Issue 39 §2 asks for the writing connection on its own thread; with `bun:sqlite` that means each
// write handed to a worker as a message and its answer (and what it changed) sent back
// (docs/operations.md, "What still runs on the request thread"). This prices that message alone,
// a vote's size each way, through a Bun worker that answers at once: one at a time (a quiet
// server: each waits for the other thread to wake) and 64 in flight (a busy one, as wrk's 64
// connections). Printed per message: wall time, and the CPU of both threads (this process's).
// Times on a shared machine move; compare the rows of one run.

const N = Number(process.env.RTT_MESSAGES ?? 50_000);
const IN_FLIGHT = 64;

type Ask = { id: number; op: string; account: { id: string; name: string }; input: { target_id: string; value: number }; now: number };

if (!Bun.isMainThread) {
  // The worker: answers each message with a vote's answer and the event its commit would announce.
  self.onmessage = (e: MessageEvent<Ask>) => {
    const m = e.data;
    postMessage({
      id: m.id,
      body: {
        vote: { target_id: m.input.target_id, value: m.input.value, weight: 1 },
        score: 3,
        duplicate: false,
        voting: { used: 3, limit: 100, remaining: 97, as_of: new Date(m.now).toISOString() },
      },
      events: [{ kind: 'vote', post_id: m.input.target_id, actor_id: m.account.id }],
    });
  };
} else {
  const worker = new Worker(import.meta.path);
  const waiting = new Map<number, () => void>();
  worker.onmessage = (e: MessageEvent<{ id: number }>) => {
    waiting.get(e.data.id)?.();
    waiting.delete(e.data.id);
  };
  let next = 0;
  const input = { target_id: '01a25285-a168-7627-a661-f6e0ea66100b', value: 1 };
  const account = { id: '01a20846-fe00-745e-a9e7-36f349df1109', name: 'alice' };
  const ask = () =>
    new Promise<void>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      worker.postMessage({ id, op: 'votes.cast', account, input, now: Date.now() } satisfies Ask);
    });
  const measure = async (label: string, run: () => Promise<void>) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run();
    const used = process.cpuUsage(cpu);
    console.log(
      `${label}: ${(((performance.now() - t) * 1000) / N).toFixed(1)} µs a message, ${((used.user + used.system) / N).toFixed(1)} µs of CPU (both threads)`,
    );
  };
  const oneAtATime = async () => {
    for (let i = 0; i < N; i++) await ask();
  };
  const inFlight = async () => {
    for (let b = 0; b < N / IN_FLIGHT; b++) await Promise.all(Array.from({ length: IN_FLIGHT }, ask));
  };
  await oneAtATime(); // warm-up
  await measure('one at a time', oneAtATime);
  await measure(`${IN_FLIGHT} in flight`, inFlight);
  worker.terminate();
}
