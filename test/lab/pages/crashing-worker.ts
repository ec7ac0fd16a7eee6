// A lab-scan stand-in that dies on its first job, for the crash path of the scan pool.
declare const self: Worker;
self.onmessage = () => {
  throw new Error('scanner crashed');
};
