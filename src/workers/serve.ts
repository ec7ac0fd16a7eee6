// The worker side of the pool: one pure function behind a message handler.
declare const self: Worker;

export function serveWorker<I, O>(handle: (input: I) => O | Promise<O>): void {
  self.onmessage = async (e: MessageEvent<{ id: number; input: I }>) => {
    const { id, input } = e.data;
    try {
      self.postMessage({ id, ok: true, result: await handle(input) });
    } catch (err) {
      self.postMessage({ id, ok: false, error: String((err as Error)?.message ?? err) });
    }
  };
}
