// docs/policy.md is imported as text (src/policy/policy.ts): one file is the published policy.
declare module '*.md' {
  const text: string;
  export default text;
}
