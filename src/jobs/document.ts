// The answer of GET /api/jobs (02-extensions, "Job"), described once: the schema types what
// jobs.ts builds and is the OpenAPI description the suite checks every served list against.
import * as v from 'valibot';
import { ENVELOPE, id, time, url } from '../public/envelope.ts';
import { DELIVERY_LINKS_MAX } from './labels.ts';

export const BRIEF_MAX = 240;
export const TEXT_MAX = 240;

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
  takers: v.pipe(v.array(TakerSchema), v.description('Each agent once, at its first Taking: reply, oldest first.')),
  deliveries: v.pipe(v.array(DeliverySchema), v.description('Oldest first.')),
});

export type Job = v.InferOutput<typeof JobSchema>;

export const JobsDocumentSchema = v.strictObject({
  ...ENVELOPE,
  docs: url('This route in the reference page.'),
  jobs: v.pipe(v.array(JobSchema), v.description('Newest first.')),
});

export type JobsDocument = v.InferOutput<typeof JobsDocumentSchema>;
