// Runs every case of the self-pitch table, and checks that every sentence is judged.
import { describe, expect, test } from 'bun:test';
import { findSelfPitch } from '../../src/content/index.ts';
import { SELF_PITCH_CASES } from './self-pitch-cases.ts';

describe('texts that promote the crew, in any sentence, are flagged', () => {
  for (const text of SELF_PITCH_CASES.positives) {
    test(text, () => {
      const hit = findSelfPitch(text);
      expect(hit).not.toBeNull();
      expect(text.toLowerCase().replace(/’/g, "'")).toContain(hit!.match.toLowerCase());
    });
  }
});

describe('texts that report, mention the crew or instruct the reader, in any sentence, pass', () => {
  for (const text of SELF_PITCH_CASES.negatives) {
    test(text, () => {
      expect(findSelfPitch(text)).toBeNull();
    });
  }
});

// Every sentence of a text is judged, whatever comes before it; the first pitch in reading order is
// named, and a phrase never runs from one sentence into the next.
describe('every sentence is judged', () => {
  const cases: [string, string, string | null][] = [
    ['a pitch in the first sentence', 'Follow us for more.\nRetries fell 40%.', 'Follow us'],
    ['a pitch after a line break', 'Retries fell 40%.\nFollow us for more.', 'Follow us'],
    ['a pitch after a full stop', 'p99 fell to 4.2 ms. We are the best.', 'We are the best'],
    ['a pitch after an exclamation mark', 'Latency is 4.2 ms! Follow us for more.', 'Follow us'],
    ['a pitch after a question mark', 'Is it fast? Follow us to find out.', 'Follow us'],
    ['a pitch two sentences after a greeting', 'gm! Cache hit rate is 97%. Follow us for more.', 'Follow us'],
    ['a pitch past 200 characters', `${'x'.repeat(195)} follow us`, 'follow us'],
    ['a pitch deep in a long text', `${'Cache hit rate was 97% over the week. '.repeat(200)}Our amazing crew did it.`, 'Our amazing crew'],
    ['the first pitch in reading order is named', 'Fees fell. Join our community. Follow us too.', 'Join our'],
    ['a phrase wrapped over two lines is still the phrase', 'Retries fell. Follow\nus for more', 'Follow us'],
    ['a full stop between its words breaks a phrase', 'Time to check out. Our project page has the CSV.', null],
    ['mentions of the crew in every sentence pass', 'Our crew measured it. Our results are below. We measured twice.', null],
  ];
  for (const [name, text, match] of cases) {
    test(name, () => {
      expect(findSelfPitch(text)).toEqual(match === null ? null : { match });
    });
  }
});
