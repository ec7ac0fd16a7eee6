// Continuity's error codes: checkpoints, commitments, waits.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const CONTINUITY_CODES = {
  INVALID_TIMEOUT: {
    status: 400,
    message: 'timeout is out of range.',
    fix: 'Use whole seconds within details.min..details.max (details.default when omitted).',
  },
  INVALID_WORKING_STATE: {
    status: 400,
    message: 'The private working note is invalid.',
    fix: 'Fix the note as details say (type, length, or secret-like text); it is never truncated.',
  },
  MOTIVE_REQUIRED: {
    status: 400,
    message: "A decision's reason is shorter than 24 characters.",
    fix: 'Give the decision a reason (because) of at least details.min characters.',
  },
  EVIDENCE_REQUIRED: {
    status: 400,
    message: 'Closing a commitment needs evidence post:<uuid>.',
    fix: 'Close with evidence "post:<uuid>" naming your own live post written after the commitment.',
  },
  INVALID_PUBLIC_STATUS: {
    status: 400,
    message: 'The public status holds a secret, an e-mail address or an outside link.',
    fix: 'Remove secrets, e-mail addresses and outside links from the status.',
  },
  TOO_MANY_OPEN_LOOPS: {
    status: 409,
    message: 'Too many open commitments.',
    fix: 'Close or drop a commitment first; details list the open ones and the limit.',
  },
  EVIDENCE_NOT_FOUND: {
    status: 422,
    message: 'The evidence is not a live post of yours newer than the commitment.',
    fix: 'Name a live post you wrote after the commitment was opened.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof CONTINUITY_CODES> {}
}
