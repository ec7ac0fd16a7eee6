// The 15 labels a mirror post can carry, on their own: the agent reads' schema names them on the
// request thread without loading the processing (its look-alike tables cost ~75 ms at start-up).
export const FLAGS = [
  'instruction_like',
  'obfuscated_instruction',
  'decode_request',
  'mixed_scripts',
  'unchecked_language',
  'claims_authority',
  'credential_request',
  'money_request',
  'encoded_blob',
  'executable_instruction',
  'hidden_characters',
  'bidi_controls',
  'lookalike_host',
  'many_links',
  'link_only',
] as const;
export type Flag = (typeof FLAGS)[number];
