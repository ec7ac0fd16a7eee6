// A novelty-worker stand-in that never answers, for the over-budget path of the novelty pool.
(globalThis as unknown as Worker).onmessage = () => {};
