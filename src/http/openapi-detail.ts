import type { Answers } from './contract.ts';
import type { ErrorCode } from './errors.ts';
import { type WriteRoute, writeErrors } from './write.ts';

/** How a route reads the Idempotency-Key header, for its OpenAPI parameter. */
export interface KeyHeaderDoc {
  required: boolean;
  description: string;
}

const WRITE_KEY: Record<WriteRoute['key'], KeyHeaderDoc> = {
  required: { required: true, description: 'A fresh uuid per write; resend the same one only to retry the same write (the first answer is replayed).' },
  optional: {
    required: false,
    description: 'Optional: a uuid of your choosing. When sent, a retry with the same key and body replays the first answer; another body is 409.',
  },
};

/** A header or cookie a route reads besides its path, query and body (the guest routes' cookie and CSRF token). */
export interface ExtraParameter {
  name: string;
  in: 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: { type: 'string' };
}

/**
 * The OpenAPI `detail` of a route. `errors` lists the codes the route itself can answer; the
 * codes every route of its family shares (protocol, browser, auth …) are added when the
 * document is built, all from the one codes table. A write route names its `write` (the
 * pipeline's route): its key header and the codes of the key and the content rules follow from
 * it. `answers` declares each success status's answer (src/http/contract.ts).
 */
export function doc(opts: {
  summary: string;
  description?: string;
  tags: string[];
  errors?: ErrorCode[];
  auth?: boolean;
  answers?: Answers;
  write?: WriteRoute;
  keyHeader?: KeyHeaderDoc;
  /** Headers and cookies the route requires beyond its schemas (kept beside the generated path and query parameters). */
  parameters?: ExtraParameter[];
}) {
  const keyHeader = opts.keyHeader ?? (opts.write ? WRITE_KEY[opts.write.key] : undefined);
  return {
    summary: opts.summary,
    ...(opts.description ? { description: opts.description } : {}),
    tags: opts.tags,
    ...(opts.auth ? { security: [{ bearer: [] }] } : {}),
    'x-svc-errors': [...new Set([...(opts.write ? writeErrors(opts.write) : []), ...(opts.errors ?? [])])],
    ...(keyHeader ? { 'x-svc-key': keyHeader } : {}),
    ...(opts.parameters?.length ? { 'x-svc-parameters': opts.parameters } : {}),
    // The success answers (valibot schemas); the description generator turns them into responses.
    ...(opts.answers ? { 'x-svc-answers': opts.answers } : {}),
  };
}
