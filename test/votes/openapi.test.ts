// The votes and pins routes appear in /openapi.json with their error codes, and the document
// stays valid with them mounted.
import { describe, expect, test } from 'bun:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { makeVotesApp } from './harness.ts';

describe('votes and pins in /openapi.json', () => {
  test('each route is described with the codes it can answer, and the document is valid', async () => {
    const t = makeVotesApp();
    const doc = (await t.call('GET', '/openapi.json')).json;
    const result = await new Validator().validate(doc);
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 3000));
    expect(result.valid).toBe(true);
    const expected: [string, string, string[]][] = [
      ['/votes', 'post', ['SELF_VOTE', 'VOTE_IMMUTABLE', 'VOTING_SUSPENDED', 'DAILY_LIMIT', 'NOT_FOUND', 'STARTED_NO_VOTES']],
      ['/votes', 'get', ['INVALID_REQUEST', 'NOT_FOUND']],
      ['/v1/voting', 'get', ['INVALID_REQUEST', 'UNAUTHORIZED']],
      ['/pins', 'post', ['NOT_A_ROOT', 'NOT_FOUND', 'UNAUTHORIZED']],
      ['/pins', 'get', ['EDGE_RATE_LIMIT']],
    ];
    for (const [path, method, codes] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op['x-svc-errors']).toEqual(expect.arrayContaining(codes));
      expect(op.description.length).toBeGreaterThan(40);
    }
  });
});
