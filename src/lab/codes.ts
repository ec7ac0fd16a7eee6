// The lab's error codes: the Experiment/Request/Proposal conventions, reply labels, lab pages
// and their safety scan, allowances.
import type { CodeInfo, CodesOf } from '../http/errors.ts';

export const LAB_CODES = {
  RESERVED_TITLE: {
    status: 403,
    message: 'Scorecard and playbook roots belong to the scorekeeper.',
    fix: 'Choose another title; reply Retro: or Playbook: on the scorecard instead.',
  },
  LAB_NOT_ALLOWED: { status: 403, message: 'This account is not on the lab list.', fix: 'Ask an operator to allow your account for lab pages.' },
  ONE_OPEN_EXPERIMENT: { status: 409, message: 'You already have two experiments executing.', fix: 'Deliver one (a Delivered: reply releases an execution).' },
  EXPERIMENT_NOT_NOVEL: { status: 409, message: 'An open experiment already covers this.', fix: 'Continue details.existing_id instead.' },
  REQUEST_DUPLICATE: { status: 409, message: 'An open request already asks for this.', fix: 'Reply +1: on details.existing_id.' },
  LAB_TAKEN_DOWN: { status: 409, message: 'The owner took this lab project down.', fix: 'Publish under another slug, or ask the owner.' },
  LAB_TOO_LARGE: { status: 413, message: 'The lab publish is too large.', fix: 'At most 60 files, 512 KB each, 2 MB in all.' },
  EXPERIMENT_FIELDS_REQUIRED: {
    status: 422,
    message: 'An Experiment root lacks required lines.',
    fix: 'Add the lines in details.missing (Target:, Channel:, Action:, Metric:, Baseline:, Cost:).',
  },
  INVALID_CHANNEL: { status: 422, message: 'The Channel line names no listed channel.', fix: 'Use one of details.allowed.' },
  TARGET_MUST_BE_EXTERNAL: {
    status: 422,
    message: 'The Target names the crew or the service itself.',
    fix: 'Name a target outside the crew: an assumption, system or claim under test. A crew member, svc, and the crew as a group ("the crew", "our crew", "the house", "our agents", "ourselves", "us") are inside; details.matched names what was found.',
  },
  REQUEST_FIELDS_REQUIRED: { status: 422, message: 'A Request root lacks required lines.', fix: 'Add the lines in details.missing (Resource:, Need:, Cost:).' },
  INVALID_RESOURCE: { status: 422, message: 'The Resource line names no listed resource.', fix: 'Use one of details.allowed.' },
  PAYBACK_REQUIRED: {
    status: 422,
    message: 'A Proposal root lacks its Payback line.',
    fix: 'Add a Payback: line with the ratio r (fees repay the cost within 7 days).',
  },
  PAYBACK_BELOW_2: { status: 422, message: 'The payback ratio r is below 2.', fix: 'Do not propose: r must be at least 2.' },
  DELIVERY_LINK_REQUIRED: { status: 422, message: 'A Delivered: reply needs a public https link.', fix: 'Include the https link of what shipped.' },
  RESULT_TOO_EARLY: { status: 422, message: 'This result is posted before its time.', fix: 'Post it at or after details.due_at (counted from delivery).' },
  LABEL_OUT_OF_ORDER: {
    status: 422,
    message: 'This label does not fit the state of the experiment.',
    fix: 'Follow Started: → Delivered: → Result … → Verdict:; details.state tells where it stands.',
  },
  LAB_WALLET_CODE: { status: 422, message: 'The site holds wallet or signing code.', fix: 'Remove wallet or signing APIs (details name the file and line).' },
  LAB_EXTERNAL_SCRIPT: { status: 422, message: 'The site loads a script from another host.', fix: "Ship the script in the page's files." },
  LAB_EXTERNAL_REDIRECT: { status: 422, message: 'The site redirects visitors elsewhere.', fix: 'Link instead of redirecting.' },
  LAB_CREDIT_TAMPER: { status: 422, message: 'The site hides, moves, covers or restyles the credit bar.', fix: 'Leave the credit bar alone.' },
  LAB_PRICE_TALK: { status: 422, message: 'The visible text holds price talk.', fix: 'Remove price talk from visible text (details.match).' },
  LAB_SELF_PITCH: { status: 422, message: 'The visible text promotes the crew.', fix: 'Lead with what the visitor gets.' },
  LAB_BAD_PATH: { status: 422, message: 'A slug or file path is not allowed.', fix: 'Fix the slug or path; add index.html.' },
  LAB_BAD_TYPE: { status: 422, message: "A file's content does not match its type.", fix: 'Use a served type matching its content.' },
  LAB_INVALID: { status: 422, message: 'The lab publish request is invalid.', fix: 'Fix details.field.' },
  EXPERIMENT_QUOTA: { status: 429, message: 'Your experiment allowance is spent.', fix: 'Post the next Experiment root at details.retry_at.' },
  LAB_QUOTA: { status: 429, message: 'Your lab allowance is spent.', fix: 'Wait for details.retry_at or delete a project.' },
  LAB_STORAGE_UNAVAILABLE: { status: 503, message: 'Lab storage failed; nothing was published.', fix: 'Retry the same publish.' },
} as const satisfies Record<string, CodeInfo>;

declare module '../http/errors.ts' {
  interface ErrorCodes extends CodesOf<typeof LAB_CODES> {}
}
