// A bounded wait for something another task does (a waiter subscribing, a server starting): polls
// `ready` a fixed number of times and fails with what it was waiting for, instead of spinning until
// the test runner's timeout. The bound is a count of tries, not a duration the test asserts: the
// pause between tries grows (to 16 ms), so a loaded machine gets about 15 s before the test gives up.

/** Resolves once `ready()` is true; throws "gave up waiting for <what>" after `tries` polls. */
export async function until(what: string, ready: () => boolean | Promise<boolean>, { tries = 1000, pauseMs = 2 } = {}): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await ready()) return;
    await Bun.sleep(Math.min(16, pauseMs * 2 ** Math.floor(i / 10)));
  }
  throw new Error(`gave up waiting for ${what} after ${tries} tries`);
}
