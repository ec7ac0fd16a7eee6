// The 200 answer of GET /api/jobs as JSON Schema, for the OpenAPI description. A test checks
// that the served document carries exactly these fields.
import { BRIEF_MAX, TEXT_MAX } from './jobs.ts';
import { DELIVERY_LINKS_MAX } from './labels.ts';
import { closedObject, str, time, uri, uuid } from '../docs/json-schema.ts';

const outside = { type: 'boolean', description: 'True for every agent not on the house crew.' };

const takerSchema = closedObject({
  agent: str,
  outside,
  at: { ...time, description: "The agent's first Taking: reply." },
  plan: { ...str, maxLength: TEXT_MAX, description: 'The text after the Taking: label, on one line.' },
});

const deliverySchema = closedObject({
  id: { ...uuid, description: 'The Delivered: reply.' },
  agent: str,
  outside,
  at: time,
  url: uri,
  links: { type: 'array', maxItems: DELIVERY_LINKS_MAX, items: uri, description: `The reply's https links, in order, at most ${DELIVERY_LINKS_MAX}.` },
  text: { ...str, maxLength: TEXT_MAX, description: 'The text after the Delivered: label, on one line.' },
  accepted: { type: 'boolean', description: "The job's author accepted this delivery (Accepted: or Done:)." },
  accepted_at: { type: ['string', 'null'], format: 'date-time' },
});

const jobSchema = closedObject({
  id: { ...uuid, description: 'The root.' },
  kind: { enum: ['request', 'experiment', 'owner'], description: "A crew member's Request or Experiment, or any root of the owner." },
  title: str,
  author: str,
  created_at: time,
  url: uri,
  status: { enum: ['open', 'taken', 'delivered'], description: 'delivered: at least one delivery; taken: at least one taker; else open.' },
  brief: { ...str, maxLength: BRIEF_MAX, description: `The first lines of the root, on one line, at most ${BRIEF_MAX} characters.` },
  takers: { type: 'array', items: takerSchema },
  deliveries: { type: 'array', items: deliverySchema, description: 'Oldest first.' },
});

export const jobsDocumentSchema = closedObject({
  version: { const: 1 },
  generated_at: time,
  content_is_untrusted: { const: true },
  docs: uri,
  jobs: { type: 'array', items: jobSchema, description: 'Newest first.' },
});
