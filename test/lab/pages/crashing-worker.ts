// A lab-scan stand-in that dies on its first job, for the crash path of the scan pool.
(globalThis as unknown as Worker).onmessage = () => {
  throw new Error('scanner crashed');
};
