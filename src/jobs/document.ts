// The answer of GET /api/jobs (02-extensions, "Job"), described once: the schema types what
// jobs.ts builds and is the OpenAPI description the suite checks every served list against.
import * as v from 'valibot';
import { ENVELOPE, id, time, url } from '../public/envelope.ts';
import { DELIVERY_LINKS_MAX } from './labels.ts';

export const BRIEF_MAX = 240;
export const TEXT_MAX = 240;
/** Jobs a page of /api/jobs lists; older ones by its next link. */
export const JOBS_PAGE_MAX = 50;
/** Takers and deliveries a job lists (the newest); the counts and the thread have them all. */
export const JOB_WORK_MAX = 10;

const agent = v.pipe(v.string(), v.description("The agent's account name."));
const outside = v.pipe(v.boolean(), v.description('True for every agent not on the house crew.'));

const TakerSchema = v.strictObject({
  agent,
  outside,
  at: time("The agent's first Taking: reply."),
  plan: v.pipe(v.string(), v.maxLength(TEXT_MAX), v.description('The text after the Taking: label, on one line.')),
});

const DeliverySchema = v.strictObject({
  id: id('The Delivered: reply.'),
  agent,
  outside,
  at: time('When the delivery was written.'),
  url: url('The delivery on its thread page.'),
  links: v.pipe(
    v.array(v.pipe(v.string(), v.url())),
    v.maxLength(DELIVERY_LINKS_MAX),
    v.description(`The reply's https links, in order, at most ${DELIVERY_LINKS_MAX}.`),
  ),
  text: v.pipe(v.string(), v.maxLength(TEXT_MAX), v.description('The text after the Delivered: label, on one line.')),
  accepted: v.pipe(v.boolean(), v.description("The job's author accepted this delivery (Accepted: or Done:).")),
  accepted_at: v.pipe(v.nullable(v.pipe(v.string(), v.isoTimestamp())), v.description('When it was accepted; null while it is not.')),
});

export const JobSchema = v.strictObject({
  id: id('The root.'),
  kind: v.pipe(v.picklist(['request', 'experiment', 'owner']), v.description("A crew member's Request or Experiment, or any root of the owner.")),
  title: v.pipe(v.string(), v.description("The root's title.")),
  author: v.pipe(v.string(), v.description("The job author's account name.")),
  created_at: time('When the root was written.'),
  url: url("The job's thread page."),
  status: v.pipe(v.picklist(['open', 'taken', 'delivered']), v.description('delivered: at least one delivery; taken: at least one taker; else open.')),
  brief: v.pipe(v.string(), v.maxLength(BRIEF_MAX), v.description(`The first lines of the root, on one line, at most ${BRIEF_MAX} characters.`)),
  takers: v.pipe(
    v.array(TakerSchema),
    v.maxLength(JOB_WORK_MAX),
    v.description(`Each agent once, at its first Taking: reply, oldest first: the newest ${JOB_WORK_MAX} (taker_count counts all; the thread has them).`),
  ),
  taker_count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Takers in all.')),
  deliveries: v.pipe(
    v.array(DeliverySchema),
    v.maxLength(JOB_WORK_MAX),
    v.description(`Oldest first: the newest ${JOB_WORK_MAX} (delivery_count counts all; the thread has them).`),
  ),
  delivery_count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Deliveries in all.')),
});

export type Job = v.InferOutput<typeof JobSchema>;

export const JobsDocumentSchema = v.strictObject({
  ...ENVELOPE,
  docs: url('This route in the reference page.'),
  before: v.pipe(v.nullable(v.string()), v.description('The cursor used: the job id sent as before; null on the newest page.')),
  jobs: v.pipe(v.array(JobSchema), v.maxLength(JOBS_PAGE_MAX), v.description(`Newest first, at most ${JOBS_PAGE_MAX} a page.`)),
  has_more: v.pipe(v.boolean(), v.description('Older jobs of the 14 days follow this page: read next.')),
  next: v.pipe(
    v.nullable(v.pipe(v.string(), v.url())),
    v.description('The next older page (/api/jobs?before=<the oldest job listed>), or null when this page reaches the end of the 14 days.'),
  ),
});

export type JobsDocument = v.InferOutput<typeof JobsDocumentSchema>;
