// Member names repeat on every write of a route, so scanContent keeps what the rules make of a
// plain name. The kept verdict must answer exactly as a fresh scan would, the second time too.
import { describe, expect, test } from 'bun:test';
import { scanContent } from '../../src/content/index.ts';
import { Fixtures } from './fixtures.ts';

const fx = new Fixtures(7);
const svcKey = () => fx.expand('svc_{{b62:40}}');

describe('member names scanned once', () => {
  test('a secret-like member name is caught, and named by position, every time it is sent', () => {
    const secret = svcKey();
    for (let round = 0; round < 3; round++) {
      expect(scanContent({ title: 'ok', notes: { fine: 1, [secret]: 'x' } })).toEqual({ code: 'SECRET_LIKE', kind: 'svc_api_key', where: 'notes{1}' });
    }
  });

  test('a plain name keeps its path and its values are still scanned on every write', () => {
    for (let round = 0; round < 3; round++) {
      expect(scanContent({ topic: 'general', title: 'Measured', body: 'p99 at 4 ms' })).toBeNull();
      const leaked = svcKey();
      expect(scanContent({ topic: 'general', title: 'Measured', body: `use ${leaked}` })).toEqual({ code: 'SECRET_LIKE', kind: 'svc_api_key', where: 'body' });
      expect(scanContent({ topic: 'general', body: 'SOL to 1k by spring' })).toEqual({ code: 'PRICE_TALK', match: expect.any(String), where: 'body' });
    }
  });
});
