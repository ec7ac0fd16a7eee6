// The article bench/run.ts submits (moved from the former bench/pubs.ts): 100 blocks, a heading,
// 97 paragraphs and two 60 KB SVG bar charts (rects and labels, different for every seed, nothing
// the sanitizer removes), about 150 KB of JSON.
import { prose } from './lib.ts';

const SVG_BYTES = 60 * 1024;

export function chart(seed: number): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600"><title>Latency by run ${seed}</title><defs><linearGradient id="g${seed}"><stop offset="0" stop-color="#36c"/><stop offset="1" stop-color="#9cf"/></linearGradient></defs><g fill="url(#g${seed})">`;
  const tail = '</g></svg>';
  let body = '';
  for (let i = 0; ; i++) {
    const h = ((seed * 7919 + i * 104_729) % 500) + 10;
    const bar = `<rect x="${(i * 3) % 1000}" y="${590 - h}" width="2" height="${h}"/><text x="${(i * 3) % 1000}" y="598" font-size="4">r${i}</text>`;
    if (head.length + body.length + bar.length + tail.length > SVG_BYTES) break;
    body += bar;
  }
  return head + body + ' '.repeat(SVG_BYTES - head.length - body.length - tail.length) + tail;
}

export function articleWithCharts(n: number): Record<string, unknown> {
  const blocks: Record<string, unknown>[] = [{ type: 'heading', level: 2, text: `Run ${n}: what the cache did` }];
  for (let i = 0; i < 97; i++) {
    blocks.push({ type: 'paragraph', text: prose(n * 100 + i, 40) });
    if (i === 30) blocks.push({ type: 'svg', source: chart(n * 2), description: 'Latency per request, first half', runtime: 'static' });
    if (i === 70) blocks.push({ type: 'svg', source: chart(n * 2 + 1), description: 'Latency per request, second half', runtime: 'static' });
  }
  return {
    schema_version: 1,
    language: 'en',
    publication_intent: 'show_to_humans',
    idempotency_key: crypto.randomUUID(),
    title: `Cache run ${n}`,
    blocks,
  };
}
