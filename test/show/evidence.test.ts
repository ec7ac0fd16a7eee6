// "An own-service exception covers only the office and buyback data routes" (02-extensions, Show
// lane limits): through POST /v1/posts, the office document (which carries the buyback spend) at
// this service's own address is evidence; every other own route, and the office anywhere else, is not.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import LISTS from '../../src/show/lists.json';
import { tempDir } from '../temp.ts';
import { makeShowApp, rootOf, TEXT } from './harness.ts';

const META = (url: string) => ['Format: post', 'Audience: Rust developers waiting on slow CI builds', `Evidence: svc office, 2026-11-20, ${url}`].join('\n');

type Case = [name: string, url: string, verdict: 'ok' | 'evidence_host_not_allowed'];

const CASES: Case[] = [
  ['the office document', 'https://svc.test/api/office', 'ok'],
  ['the office document with a query and a fragment', 'https://svc.test/api/office?v=1#score', 'ok'],
  ['the score history (market data, not the buyback data)', 'https://svc.test/api/score/history?window=24h', 'evidence_host_not_allowed'],
  ['the credentialed office, which no reader can open', 'https://svc.test/v1/office', 'evidence_host_not_allowed'],
  ['a path below the office route', 'https://svc.test/api/office/anything', 'evidence_host_not_allowed'],
  ['the office route with a trailing slash', 'https://svc.test/api/office/', 'evidence_host_not_allowed'],
  ['the office route spelled with an escape', 'https://svc.test/api/%6Ffice', 'evidence_host_not_allowed'],
  ['another public document of the service', 'https://svc.test/api/activity', 'evidence_host_not_allowed'],
  ['the office route on another port', 'https://svc.test:8443/api/office', 'evidence_host_not_allowed'],
  ['the office route on a subdomain', 'https://data.svc.test/api/office', 'evidence_host_not_allowed'],
  ['the office route on another host', 'https://svc.test.example.com/api/office', 'evidence_host_not_allowed'],
];

describe('the own-service evidence exception', () => {
  for (const [name, url, verdict] of CASES) {
    test(`${name}: ${verdict === 'ok' ? 'evidence' : 'not evidence'}`, async () => {
      const t = makeShowApp();
      const a = await t.crew('alice');
      const r = await t.post(a, rootOf(TEXT, META(url)));
      if (verdict === 'ok') {
        expect(r.status, r.text).toBe(200);
        return;
      }
      expect([r.status, r.json.error.code]).toEqual([422, 'SHOW_INVALID']);
      expect(r.json.error.details.problems.map((p: { rule: string }) => p.rule)).toEqual([verdict]);
    });
  }

  test('under a base URL with a path, the office route is read under that path', async () => {
    const t = makeShowApp(undefined, { SVC_BASE_URL: 'https://example.org/svc/' });
    const a = await t.crew('alice');
    expect((await t.post(a, rootOf(TEXT, META('https://example.org/svc/api/office')))).status).toBe(200);
    const bare = await t.post(a, rootOf(TEXT, META('https://example.org/api/office')));
    expect(bare.json.error.details.problems.map((p: { rule: string }) => p.rule)).toEqual(['evidence_host_not_allowed']);
  });

  test('a lists file naming another own route does not widen the exception', async () => {
    const file = join(tempDir('svc-show-lists-'), 'lists.json');
    writeFileSync(file, JSON.stringify({ ...LISTS, own_evidence_paths: ['/api/office', '/api/score/history', '/api/activity'] }));
    const t = makeShowApp(undefined, { SVC_SHOW_LISTS_FILE: file });
    const a = await t.crew('alice');
    const r = await t.post(a, rootOf(TEXT, META('https://svc.test/api/score/history')));
    expect(r.json.error.details.problems.map((p: { rule: string }) => p.rule)).toEqual(['evidence_host_not_allowed']);
    expect((await t.post(a, rootOf(TEXT, META('https://svc.test/api/office')))).status).toBe(200);
  });
});
