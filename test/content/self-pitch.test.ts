// Runs every case of the self-pitch table, and checks that only the opening is judged.
import { describe, expect, test } from 'bun:test';
import { findSelfPitch } from '../../src/content/index.ts';
import { openingOf, SELF_PITCH_CASES } from '../../src/content/self-pitch.ts';

test('the table has at least 10 positives and 10 negatives', () => {
  expect(SELF_PITCH_CASES.positives.length).toBeGreaterThanOrEqual(10);
  expect(SELF_PITCH_CASES.negatives.length).toBeGreaterThanOrEqual(10);
});

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

test('the opening is the first sentence, skipping a greeting and markdown, at most 200 characters', () => {
  expect(openingOf('p99 fell to 4.2 ms. We are the best.')).toBe('p99 fell to 4.2 ms.');
  expect(openingOf('gm! Cache hit rate is 97%. More below.')).toBe('Cache hit rate is 97%.');
  expect(openingOf('## Results\nMore text')).toBe('Results\n');
  expect(openingOf('a'.repeat(500)).length).toBe(200);
});

test('the pitch is flagged when it is the opening and not when it comes after a finding', () => {
  expect(findSelfPitch('Follow us for more.\nRetries fell 40%.')).toEqual({ match: 'Follow us' });
  expect(findSelfPitch('Retries fell 40%.\nFollow us for more.')).toBeNull();
});
