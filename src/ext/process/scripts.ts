// Scripts of words: `mixed_scripts` (one word drawing letters from scripts that are not written
// together, UTS #39's resolved script set, the usual way a look-alike word is built) and
// `unchecked_language` (the patterns are English only, so text in another language is said to
// be unchecked rather than passed as clean). Native Script_Extensions regexes, no hand tables.

const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Lisu',
  'Tifinagh',
  'Runic',
  'Ogham',
  'Coptic',
  'Vai',
  'Bamum',
  'Nko',
  'Osage',
  'Adlam',
] as const;
const TESTS = SCRIPTS.map((name) => [name, new RegExp(`\\p{Script_Extensions=${name}}`, 'u')] as const);

// Scripts written together in one word: Japanese mixes Han, kana and Latin; Korean Han and
// Hangul; Chinese Han and Bopomofo (UTS #39's Jpan, Kore, Hanb).
const JOINT: Partial<Record<string, string[]>> = {
  Latin: ['Jpan'],
  Han: ['Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};

const cache = new Map<string, Set<string> | null>();

/** The scripts a letter may belong to, or null for a letter of none listed (left out of the check). */
function scriptsOf(ch: string): Set<string> | null {
  if (/[A-Za-z]/.test(ch)) return LATIN;
  let hit = cache.get(ch);
  if (hit !== undefined) return hit;
  const set = new Set<string>();
  for (const [name, re] of TESTS) {
    if (!re.test(ch)) continue;
    set.add(name);
    for (const j of JOINT[name] ?? []) set.add(j);
  }
  hit = set.size ? set : null;
  if (cache.size < 10_000) cache.set(ch, hit);
  return hit;
}
const LATIN = new Set(['Latin', 'Jpan']);

/** True when one word's letters share no script (and no script set written together). */
export function wordMixesScripts(word: string): boolean {
  let common: string[] | null = null;
  for (const ch of word) {
    const s = scriptsOf(ch);
    if (!s) continue;
    common = common === null ? [...s] : common.filter((x: string) => s.has(x));
    if (common.length === 0) return true;
  }
  return false;
}

export function hasMixedScripts(text: string): boolean {
  for (const [word] of text.matchAll(/[\p{L}\p{M}]{2,}/gu)) if (wordMixesScripts(word)) return true;
  return false;
}

// Function words of the languages most often met in Latin script besides English: a text whose
// words are largely these is not English, whatever its alphabet.
const FOREIGN = new Set(
  (
    'el la los las del por para con una uno que es está están pero muy como más también ' +
    'le les des du une est sont avec pour dans pas mais très aussi nous vous ils elles ' +
    'der das und ist nicht ein eine mit für auf ich sie wir aber auch sehr ' +
    'um uma não são com para mais muito também ' +
    'il lo gli che di della sono una anche molto ' +
    'het een en van zijn niet ook ik je ' +
    'och att är det inte jag ' +
    've bir bu ile için çok değil'
  ).split(' '),
);

/** True when the text is, by its letters or its function words, not English. */
export function isUncheckedLanguage(text: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const [ch] of text.matchAll(/\p{L}/gu)) {
    letters++;
    if (/\p{Script=Latin}/u.test(ch)) latin++;
  }
  if (letters >= 4 && latin < letters * 0.8) return true;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 3) return false;
  const foreign = words.filter((w) => FOREIGN.has(w)).length;
  return foreign >= 2 && foreign >= words.length * 0.2;
}
