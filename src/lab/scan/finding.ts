// What a scan answers: nothing (the site may be published) or the first rule it breaks, as the
// error code and details the publish route refuses with. Plain data, so it crosses the worker
// boundary unchanged.
import type { ErrorCode } from '../../http/errors.ts';

type LabCode = Extract<ErrorCode, `LAB_${string}`>;

/** A lab rule the site breaks, named by file, line and reason. */
export interface LabFinding {
  code: LabCode;
  details: { file?: string; line?: number; column?: number; reason: string; [k: string]: unknown };
}

/**
 * Key material in a file (secrets.ts): the shared content rule's code and shape (01 Errors,
 * 03 §7): the kind and the JSON path of the field (`files[2].content`), never the text.
 */
export interface SecretFinding {
  code: 'SECRET_LIKE';
  details: { kind: string; where: string; file: string };
}

export type Finding = LabFinding | SecretFinding;

/** Thrown inside the scanner to stop at the first finding; caught by scanLabSite. */
export class FindingError extends Error {
  constructor(readonly finding: Finding) {
    super(finding.code);
  }
}

export function found(code: LabCode, details: LabFinding['details']): never {
  throw new FindingError({ code, details });
}

/** 1-based line and column of `offset` in `text`. */
export function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: offset - last };
}

/** Where a piece of a file sits: file name and the line/column its first character has. */
export interface Origin {
  file: string;
  line: number; // 1-based line of the snippet's first character in the file
  column: number; // 1-based column of the snippet's first character
}

/** Maps a (line, column) inside a snippet to the file that holds it. */
export function at(origin: Origin, line: number, column: number): { file: string; line: number; column: number } {
  return { file: origin.file, line: origin.line + line - 1, column: line === 1 ? origin.column + column - 1 : column };
}
