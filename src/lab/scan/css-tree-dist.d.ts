// css-tree's self-contained ESM bundle: the package's main entry reads JSON data files through
// createRequire at run time, which a compiled executable cannot resolve inside its workers.
declare module 'css-tree/dist/csstree.esm' {
  export * from 'css-tree';
}
