// The content rules as every writing route applies them: the first violation refuses the write
// (422) before anything is stored. SECRET_LIKE details name the kind and the field, never the text.
import { fail } from '../http/errors.ts';
import { type ScanOptions, scanContent } from './scan.ts';

export function enforceContentRules(value: unknown, opts?: ScanOptions): void {
  const v = scanContent(value, opts);
  if (!v) return;
  if (v.code === 'SECRET_LIKE') fail('SECRET_LIKE', { kind: v.kind, where: v.where });
  fail(v.code, { match: v.match, where: v.where });
}
