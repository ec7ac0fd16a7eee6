// The lab's fixed limits (01-core-board "Limits") and the credit bar's markup, shared by the
// route (sizes are checked before any scan) and the scanner (which refuses anything touching
// the bar).

export const MAX_FILES = 60;
export const MAX_FILE_BYTES = 512 * 1024;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024;
// A publish carries a whole site (MAX_TOTAL_BYTES of decoded files, base64 inflates it): its route's
// serialized body budget; the route then enforces the file limits above (LAB_TOO_LARGE).
export const LAB_PUBLISH_BYTES = 4 * 1024 * 1024;
export const MAX_PATH_CHARS = 160;
export const MAX_PATH_DEPTH = 6; // segments, file name included
export const SLUG = /^[a-z0-9][a-z0-9-]{1,47}$/;

// The service adds the credit bar to every HTML page it serves. It is a custom element so that
// no page rule can reach it through an ordinary element selector by accident, and a scan can
// refuse any rule that names it (by tag, id or class) on purpose.
export const CREDIT_TAG = 'svc-credit';
export const CREDIT_ID = 'svc-credit';
export const CREDIT_CLASS = 'svc-credit';
