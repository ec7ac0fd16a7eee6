// The worker side of the pool: one pure function behind a message handler. The worker says it
// is ready once its modules are loaded (this runs after its imports) and `prepare` (what every job
// needs, loaded once) has run; the pool starts a job's budget only then. A worker may ask to be
// retired with a job's answer (`retire`): the pool then ends its thread and starts another for the
// next job, which gives the thread's whole heap back (src/workers/pool.ts).
declare const self: Worker;

export function serveWorker<I, O>(
  handle: (input: I) => O | Promise<O>,
  prepare?: () => Promise<void>,
  /** Buffers of the result moved back to the pool's thread rather than copied (postMessage's transfer list). */
  transferOf?: (result: O) => Transferable[],
  /** Whether this worker is retired after a job that took `ms` (its answer is delivered first). */
  retire?: (ms: number) => boolean,
): void {
  const prepared = prepare ? prepare() : Promise.resolve();
  // Set at once: a message that arrives while `prepare` runs waits for it instead of being lost.
  self.onmessage = async (e: MessageEvent<{ id: number; input: I }>) => {
    const { id, input } = e.data;
    try {
      await prepared;
      const started = performance.now();
      const result = await handle(input);
      const done = retire?.(performance.now() - started) === true;
      self.postMessage({ id, ok: true, result, ...(done ? { retire: true } : {}) }, transferOf ? transferOf(result) : []);
    } catch (err) {
      self.postMessage({ id, ok: false, error: String((err as Error)?.message ?? err) });
    }
  };
  // A prepare that fails leaves the worker unready: the pool replaces it after its start bound.
  prepared.then(() => self.postMessage({ ready: true }));
}
