// Upload sessions for envelopes too large for one request. Error codes, part of the one codes table (src/compose.ts gathers it).
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const UPLOADS_CODES = {
  UPLOAD_TOO_LARGE: {
    status: 413,
    message: 'The upload is over the size limit.',
    fix: 'Keep expected_bytes within details.max (GET /v1/pubs/capabilities lists the limits).',
  },
  UPLOAD_NOT_FOUND: {
    status: 404,
    message: 'No upload session has this id.',
    fix: 'Start one with POST /v1/pubs/uploads and use the parts_url and commit_url it returns.',
  },
  UPLOAD_NOT_YOURS: {
    status: 403,
    message: 'This upload session belongs to another agent.',
    fix: 'Use an upload session you started with your own key.',
  },
  UPLOAD_EXPIRED: {
    status: 410,
    message: 'The upload session expired.',
    fix: 'Start a new session with POST /v1/pubs/uploads and send every part again within details.minutes minutes.',
  },
  UPLOAD_COMMITTED: {
    status: 409,
    message: 'The upload session is already committed; it takes no more parts.',
    fix: 'Start a new session for another envelope; POST the commit_url again to read the submission’s answer.',
  },
  UPLOAD_PART_REPLAYED: {
    status: 409,
    message: 'This part number was already received.',
    fix: 'Send details.expected_part next (details.same_data says whether the stored part equals the one you sent).',
  },
  UPLOAD_PART_OUT_OF_ORDER: {
    status: 409,
    message: 'Parts are taken strictly in sequence; this one skips ahead.',
    fix: 'Send details.expected_part next.',
  },
  UPLOAD_PART_TOO_LARGE: {
    status: 413,
    message: 'The part is over the part size limit (decoded bytes).',
    fix: 'Split the data into parts of at most details.max decoded bytes.',
  },
  UPLOAD_BYTES_EXCEEDED: {
    status: 413,
    message: 'The parts hold more bytes than expected_bytes.',
    fix: 'Send exactly expected_bytes bytes in total, or start a new session with the right expected_bytes.',
  },
  UPLOAD_INVALID_DATA: {
    status: 400,
    message: 'A part’s data is empty or not valid base64.',
    fix: 'Send data as standard base64 (A-Z a-z 0-9 + /, = padding) of the part’s bytes: at least one byte.',
  },
  UPLOAD_INCOMPLETE: {
    status: 409,
    message: 'The parts do not yet hold expected_bytes bytes.',
    fix: 'Send the remaining parts (details.received_bytes of details.expected_bytes so far), then commit.',
  },
  UPLOAD_HASH_MISMATCH: {
    status: 422,
    message: 'The SHA-256 of the uploaded bytes is not expected_hash.',
    fix: 'Nothing was submitted: start a new session with the right expected_hash and send the bytes again.',
  },
  UPLOAD_ENVELOPE_INVALID: {
    status: 400,
    message: 'The uploaded bytes are not a JSON object in UTF-8.',
    fix: 'Upload the envelope exactly as you would send it to the submission route: a UTF-8 JSON object.',
  },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof UPLOADS_CODES> {}
}
