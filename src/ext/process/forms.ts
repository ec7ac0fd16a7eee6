// The forms a post's text is matched in besides itself (02-extensions "Outside mirror post"):
// folded (case, width, confusable skeleton per UTS #39 through unhomoglyph's data), squashed
// (letters spread apart joined), un-leeted, and once-decoded (base64, hex, percent-encoding, HTML
// entities, escape runs, Morse, rot13, reversed). Only one decoding level: a decoded form is
// folded but never decoded again. Encoded runs count only when they decode to readable text, so a
// hash, an ordinary word that happens to be valid base64 or a number is not a decoded form.
import unhomoglyph from 'unhomoglyph';

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /\p{M}/gu;

/** UTS #39 skeleton of a whole string: ignorables out, NFD, confusables mapped, NFD again. */
export function skeleton(s: string): string {
  return unhomoglyph(s.replace(IGNORABLE, '').normalize('NFD')).normalize('NFD');
}

/**
 * Folded form for pattern matching: lower case, width and compatibility folded, every non-ASCII
 * character replaced by its skeleton, marks dropped. ASCII is left as it is, so ordinary words
 * keep their letters ("modern" is not read as "modem").
 */
export function fold(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\P{ASCII}/gu, (c) => skeleton(c))
    .replace(MARKS, '')
    .toLowerCase();
}

// A run of three or more single letters or digits, each apart from the next by one to three
// separators: "i g n o r e", "i.g.n.o.r.e", "s e n d  m e  y o u r".
const SPREAD_RUN = /\b(?:[a-z0-9][ .\-_*|/\\]{1,3}){2,}[a-z0-9]\b/g;

/**
 * One run of spread letters joined into the words it spells. The narrowest gap of the run is the
 * gap between letters. A wider gap is the gap between words, as a fully letter-spaced sentence
 * writes it ("i g n o r e  a l l" with two spaces between words, "s-e-n-d / m-e"), and so is a
 * space where the letters are joined by a mark ("s.e.n.d m.e"): the run reads "ignore all",
 * "send me". A run with one kind of gap is one word ("I am a U S citizen" → "i am aus citizen").
 */
function joinRun(run: string): string {
  const gaps = run.match(/[^a-z0-9]+/g) ?? [];
  const letterGap = gaps.reduce((a, b) => (b.length < a.length ? b : a));
  const wordGap = (gap: string) => gap.length > letterGap.length || (/\s/.test(gap) && !/\s/.test(letterGap));
  return run.replace(/[^a-z0-9]+/g, (gap) => (wordGap(gap) ? ' ' : ''));
}

/** Letters spread apart ("i g n o r e", "i.g.n.o.r.e") joined into their words; punctuation inside a word dropped. */
export function squash(folded: string): string {
  return folded.replace(SPREAD_RUN, joinRun).replace(/(?<=[a-z])[.\-_*'`^~|]+(?=[a-z])/g, '');
}

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i', '|': 'l', '+': 't' };

/** Leetspeak undone inside words that mix letters and leet characters ("1gn0r3" → "ignore"). */
export function unleet(folded: string): string {
  return folded.replace(/[a-z0-9@$!|+]+/g, (w) => (/[0-9@$!|+]/.test(w) && /[a-z]/.test(w) ? w.replace(/[0-9@$!|+]/g, (c) => LEET[c] ?? c) : w));
}

export type DecodedKind = 'base64' | 'hex' | 'percent' | 'entities' | 'escapes' | 'morse' | 'rot13' | 'reversed' | 'smuggled';
export interface Decoded {
  kind: DecodedKind;
  text: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Readable text: valid UTF-8, at least 4 characters, printable, with a run of three letters. */
function readable(bytes: Uint8Array): string | null {
  if (bytes.length < 4) return null;
  let s: string;
  try {
    s = utf8.decode(bytes);
  } catch {
    return null;
  }
  const printable = s.match(/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n]/gu)?.length ?? 0;
  return printable >= s.length * 0.95 && /\p{L}{3}/u.test(s) ? s : null;
}

function base64Runs(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{8,}={0,2}/g)) {
    // An ordinary word is letters of one case: encoded text mixes cases, digits or symbols.
    if (!/[0-9+/=_-]/.test(run) && !(/[a-z]/.test(run) && /[A-Z].*[A-Z]/.test(run.slice(1)))) continue;
    const body = run.replace(/=+$/, '');
    if (body.length % 4 === 1) continue;
    const s = readable(Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    if (s) out.push(s);
  }
  return out;
}

function hexRuns(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/(?:0x)?(?:[0-9a-f]{2}[\s:,-]?){4,}/gi)) {
    const digits = run.replace(/^0x/i, '').replace(/[^0-9a-f]/gi, '');
    if (digits.length % 2) continue;
    const s = readable(Buffer.from(digits, 'hex'));
    if (s) out.push(s);
  }
  return out;
}

function percentRuns(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/(?:[^\s%]{0,3}%[0-9a-f]{2}){3,}[^\s%]*/gi)) {
    const bytes: number[] = [];
    for (let i = 0; i < run.length; i++) {
      if (run[i] === '%' && /^[0-9a-f]{2}$/i.test(run.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(run.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(run[i]!));
    }
    const s = readable(new Uint8Array(bytes));
    if (s) out.push(s);
  }
  return out;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', sol: '/', colon: ':', period: '.', comma: ',' };
const fromCode = (n: number): string => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');

function entityForm(text: string): string | null {
  const refs = text.match(/&(?:#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi);
  if (!refs || refs.length < 3) return null;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (m, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? m;
    return fromCode(body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1)));
  });
}

function escapeForm(text: string): string | null {
  const re = /\\(?:x([0-9a-f]{2})|u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4})|([0-7]{3}))/gi;
  if ((text.match(re)?.length ?? 0) < 3) return null;
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    if (bytes.length) out += new TextDecoder().decode(new Uint8Array(bytes.splice(0)));
  };
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) {
      flush();
      out += text.slice(at, m.index);
    }
    if (m[1] !== undefined) bytes.push(Number.parseInt(m[1], 16));
    else if (m[4] !== undefined) bytes.push(Number.parseInt(m[4], 8) & 0xff);
    else {
      flush();
      out += fromCode(Number.parseInt((m[2] ?? m[3])!, 16));
    }
    at = m.index + m[0].length;
  }
  flush();
  return out + text.slice(at);
}

const MORSE: Record<string, string> = {
  '.-': 'a',
  '-...': 'b',
  '-.-.': 'c',
  '-..': 'd',
  '.': 'e',
  '..-.': 'f',
  '--.': 'g',
  '....': 'h',
  '..': 'i',
  '.---': 'j',
  '-.-': 'k',
  '.-..': 'l',
  '--': 'm',
  '-.': 'n',
  '---': 'o',
  '.--.': 'p',
  '--.-': 'q',
  '.-.': 'r',
  '...': 's',
  '-': 't',
  '..-': 'u',
  '...-': 'v',
  '.--': 'w',
  '-..-': 'x',
  '-.--': 'y',
  '--..': 'z',
  '-----': '0',
  '.----': '1',
  '..---': '2',
  '...--': '3',
  '....-': '4',
  '.....': '5',
  '-....': '6',
  '--...': '7',
  '---..': '8',
  '----.': '9',
};

function morseForm(text: string): string | null {
  const runs = text
    .replace(/[·•∙]/g, '.')
    .replace(/[−–—_]/g, '-')
    .match(/(?:[.-]{1,5}(?:\s*\/\s*|\s+)){3,}[.-]{1,5}/g);
  if (!runs) return null;
  const words = runs.map((run) =>
    run
      .split(/\s*\/\s*|\s{2,}/)
      .map((w) =>
        w
          .trim()
          .split(/\s+/)
          .map((c) => MORSE[c] ?? '')
          .join(''),
      )
      .join(' '),
  );
  const s = words.join(' ');
  return /[a-z]{3}/.test(s) ? s : null;
}

const rot13 = (s: string): string =>
  s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.charCodeAt(0) - (c <= 'Z' ? 65 : 97) + 13) % 26) + (c <= 'Z' ? 65 : 97)));

/** The encoded runs of `text` that decoded to readable text (what `encoded_blob` reports). */
export function decodedRuns(text: string): Decoded[] {
  const out: Decoded[] = [];
  for (const s of base64Runs(text)) out.push({ kind: 'base64', text: s });
  for (const s of hexRuns(text)) out.push({ kind: 'hex', text: s });
  for (const s of percentRuns(text)) out.push({ kind: 'percent', text: s });
  const ent = entityForm(text);
  if (ent !== null) out.push({ kind: 'entities', text: ent });
  const esc = escapeForm(text);
  if (esc !== null) out.push({ kind: 'escapes', text: esc });
  const morse = morseForm(text);
  if (morse !== null) out.push({ kind: 'morse', text: morse });
  return out;
}

/** Every once-decoded form: the encoded runs, plus the whole text in rot13 and reversed. */
export function decodedForms(text: string): Decoded[] {
  return [...decodedRuns(text), { kind: 'rot13', text: rot13(text) }, { kind: 'reversed', text: [...text].reverse().join('') }];
}
