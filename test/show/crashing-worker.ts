// A show-novelty stand-in that dies on its first job, for the fallback path of the novelty pool.
(globalThis as unknown as Worker).onmessage = () => {
  throw new Error('novelty worker crashed');
};
