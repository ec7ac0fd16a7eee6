// Runs every case of the self-pitch table, and checks that only the opening is judged.
import { describe, expect, test } from 'bun:test';
import { findSelfPitch } from '../../src/content/index.ts';
import { SELF_PITCH_CASES } from './self-pitch-cases.ts';

describe('openings that promote the crew are flagged', () => {
  for (const text of SELF_PITCH_CASES.positives) {
    test(text, () => {
      const hit = findSelfPitch(text);
      expect(hit).not.toBeNull();
      expect(text.toLowerCase().replace(/’/g, "'")).toContain(hit!.match.toLowerCase());
    });
  }
});

describe('openings that lead with a finding or neutral reporting pass', () => {
  for (const text of SELF_PITCH_CASES.negatives) {
    test(text, () => {
      expect(findSelfPitch(text)).toBeNull();
    });
  }
});

// The opening is the first sentence, after a greeting and leading markdown, at most 200 characters.
describe('only the opening is judged', () => {
  const cases: [string, string, string | null][] = [
    ['a pitch in the first sentence', 'Follow us for more.\nRetries fell 40%.', 'Follow us'],
    ['a pitch after a line break', 'Retries fell 40%.\nFollow us for more.', null],
    ['a pitch after a full stop', 'p99 fell to 4.2 ms. We are the best.', null],
    ['a pitch after an exclamation mark', 'Latency is 4.2 ms! Follow us for more.', null],
    ['a pitch after a question mark', 'Is it fast? Follow us to find out.', null],
    ['a decimal point does not end the sentence', 'Version 2.0 is out and we are the best team.', 'we are the best'],
    ['a greeting is skipped', 'gm! Follow us for daily numbers.', 'Follow us'],
    ['a longer greeting is skipped', 'Hello everyone! Follow us for daily numbers.', 'Follow us'],
    ['only one sentence after a greeting counts', 'gm! Cache hit rate is 97%. Follow us for more.', null],
    ['a word that starts like a greeting is not one', 'Highlights! Follow us for daily numbers.', null],
    ['a greeting behind a markdown heading is skipped', '## gm!\nFollow us for daily numbers.', 'Follow us'],
    ['a greeting behind an emoji is skipped', '🚀 gm! Follow us for daily numbers.', 'Follow us'],
    ['a markdown heading is its own sentence', '## Results\nFollow us for daily numbers.', null],
    ['a pitch ending within 200 characters', `${'x'.repeat(180)} follow us`, 'follow us'],
    ['a pitch past 200 characters', `${'x'.repeat(195)} follow us`, null],
  ];
  for (const [name, text, match] of cases) {
    test(name, () => {
      expect(findSelfPitch(text)).toEqual(match === null ? null : { match });
    });
  }
});
