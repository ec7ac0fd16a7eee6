// The phrase rules' `need` tests (phrases.ts), all of them in one pass over a text.
//
// A need is a plain case-insensitive regex without the "u" flag: alternatives of literal words and
// symbols ("entr|buy|tp|take|…", "\d|dollar|buck|penny", "eo[ymwq]"). The price-talk rules hold
// ~50 of them, and each was a search of its own over every form of every text field of a write
// (title, body, their leetspeak copies): ~110 regex passes a post. Here each need's source is read
// into its literal strings once; the text is lower-cased once and walked once by an Aho–Corasick
// automaton over all the literals, which marks every need one of whose literals occurs.
//
// Sound, never stricter: wherever a need regex matches, the lower-cased text holds one of its
// literals. Without "u", /x/i matches a character only when both upper-case to the same unit and
// that is not an ASCII letter reached from outside ASCII, so an ASCII letter of a literal matches
// only its two ASCII cases, which lower-case alike; a literal's other characters are only allowed
// when they are caseless (arrows, whole emoji, "€") or Latin-1 lower-case letters ("ã", "á"),
// whose only case partner is their Latin-1 capital. (test/content/needs.test.ts checks this over
// every UTF-16 unit.) The lower-cased text may hold more than the regex matches ("İ" lower-cases to
// "i" and a combining dot): that only runs a pattern the need could have skipped, whose own regex
// then answers. A need whose source is anything but such alternatives (a group, a quantifier, an
// anchor, `\b`) is not read: it keeps its regex.

// Caseless blocks a literal may draw on (no character in them has, or is, another's case
// partner): general punctuation and the euro sign, arrows, dingbats and other arrows. Listed
// rather than asked of the case tables, whose first use loads them (~30 ms on the first post).
// An emoji (a surrogate pair of U+1F000–U+1FAFF) is allowed whole: the units a text matches it
// with are that very pair, which lower-casing leaves alone (it does change the pairs of cased
// scripts such as Deseret, so a lone surrogate is not allowed).
const CASELESS: readonly (readonly [number, number])[] = [
  [0x2000, 0x20cf],
  [0x2190, 0x21ff],
  [0x2700, 0x27bf],
  [0x27f0, 0x27ff],
  [0x2900, 0x297f],
  [0x2b00, 0x2bff],
];

/** A character a literal may hold: see the file's note (test/content/needs.test.ts checks it over every unit). */
export function literalSafe(c: number): boolean {
  if (c < 0x80) return true;
  if (c >= 0xe0 && c <= 0xfe && c !== 0xf7) return true;
  return CASELESS.some(([lo, hi]) => c >= lo && c <= hi);
}

const DIGITS = '0123456789';

/** The literal strings one of which every match of `need` holds (lower-cased), or null when its source is not plain alternatives. */
export function needLiterals(need: RegExp): string[] | null {
  if (need.flags.replace('g', '') !== 'i') return null;
  const src = need.source;
  const out: string[] = [];
  // Each alternative is a sequence of units, each a set of characters (a literal, \d, a class).
  let seq: string[][] = [];
  const finish = (): boolean => {
    if (seq.length === 0) return false;
    let words = [''];
    for (const unit of seq) {
      words = words.flatMap((w) => unit.map((c) => w + c));
      if (words.length > 64) return false;
    }
    out.push(...words);
    seq = [];
    return true;
  };
  const escaped = (i: number): [string[] | null, number] => {
    const e = src[i + 1];
    if (e === undefined) return [null, i];
    if (e === 'd') return [[...DIGITS], i + 2];
    if (e === 'u') {
      const hex = src.slice(i + 2, i + 6);
      return /^[0-9a-fA-F]{4}$/.test(hex) ? [[String.fromCharCode(Number.parseInt(hex, 16))], i + 6] : [null, i];
    }
    if (/[$.*+?()[\]{}|\\/^-]/.test(e)) return [[e], i + 2];
    return [null, i]; // \b, \s, \w … are not literals
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '|') {
      if (!finish()) return null;
      i++;
    } else if (c === '\\') {
      const [unit, next] = escaped(i);
      if (!unit) return null;
      seq.push(unit);
      i = next;
    } else if (c === '[') {
      const unit: string[] = [];
      let j = i + 1;
      if (src[j] === '^') return null;
      for (; j < src.length && src[j] !== ']'; ) {
        if (src[j] === '\\') {
          const [u, next] = escaped(j);
          if (!u) return null;
          unit.push(...u);
          j = next;
        } else if (src[j + 1] === '-' && src[j + 2] !== undefined && src[j + 2] !== ']') {
          for (let k = src.charCodeAt(j); k <= src.charCodeAt(j + 2); k++) unit.push(String.fromCharCode(k));
          j += 3;
        } else {
          unit.push(src[j]!);
          j++;
        }
      }
      if (src[j] !== ']' || unit.length === 0 || unit.length > 32) return null;
      seq.push(unit);
      i = j + 1;
    } else if ('.*+?(){}^$'.includes(c)) {
      return null;
    } else {
      seq.push([c]);
      i++;
    }
  }
  if (!finish()) return null;
  const lower = out.map((w) => w.toLowerCase());
  for (const w of lower) {
    if (w.length === 0) return null;
    for (let k = 0; k < w.length; k++) {
      const c = w.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff) {
        const cp = w.codePointAt(k)!;
        if (cp < 0x1f000 || cp > 0x1faff) return null;
        k++;
      } else if (!literalSafe(c)) return null;
    }
  }
  return [...new Set(lower)];
}

/**
 * The needs of a rule set, read into one automaton. `holds(scan, need)` answers whether the need
 * may match the text (the scan computes the text's marks once); a need it could not read is
 * answered by its regex.
 */
export class NeedIndex {
  private readonly ids = new Map<RegExp, number>();
  private readonly words: number; // 32-bit words per state mask
  private readonly symbols: Map<number, number>; // code unit → symbol (1..K); others are 0
  private readonly ascii: Int32Array;
  private readonly width: number; // K + 1
  private readonly delta: Int32Array; // state * width + symbol → state
  private readonly out: Uint32Array; // state * words + w → needs marked on reaching it
  private readonly marks: Uint8Array; // 1 when the state marks any need

  constructor(needs: Iterable<RegExp>) {
    const literals: { word: string; id: number }[] = [];
    for (const need of needs) {
      if (this.ids.has(need)) continue;
      const words = needLiterals(need);
      if (!words) continue;
      const id = this.ids.size;
      this.ids.set(need, id);
      for (const word of words) literals.push({ word, id });
    }
    this.words = Math.max(1, Math.ceil(this.ids.size / 32));
    this.symbols = new Map();
    for (const { word } of literals)
      for (let k = 0; k < word.length; k++) if (!this.symbols.has(word.charCodeAt(k))) this.symbols.set(word.charCodeAt(k), this.symbols.size + 1);
    this.ascii = new Int32Array(128);
    for (const [c, sym] of this.symbols) if (c < 128) this.ascii[c] = sym;
    this.width = this.symbols.size + 1;
    const width = this.width;
    const words = this.words;
    // The trie in a flat table (-1: no edge yet); symbol 0 stands for every unit no literal holds.
    const most = 1 + literals.reduce((n, l) => n + l.word.length, 0);
    const table = new Int32Array(most * width).fill(-1);
    const outs = new Uint32Array(most * words);
    let states = 1;
    for (const { word, id } of literals) {
      let s = 0;
      for (let k = 0; k < word.length; k++) {
        const at = s * width + this.symbols.get(word.charCodeAt(k))!;
        if (table[at]! < 0) table[at] = states++;
        s = table[at]!;
      }
      outs[s * words + (id >>> 5)]! |= 1 << (id & 31);
    }
    // Failure links, breadth first, folded into a complete transition table: a missing edge
    // goes where the longest proper suffix's state goes, and a state marks what its suffix marks.
    const fail = new Int32Array(states);
    const queue = new Int32Array(states);
    let tail = 0;
    for (let sym = 0; sym < width; sym++) {
      const t = table[sym]!;
      if (t < 0) table[sym] = 0;
      else queue[tail++] = t;
    }
    for (let head = 0; head < tail; head++) {
      const s = queue[head]!;
      const f = fail[s]!;
      for (let w = 0; w < words; w++) outs[s * words + w]! |= outs[f * words + w]!;
      for (let sym = 0; sym < width; sym++) {
        const at = s * width + sym;
        const t = table[at]!;
        if (t < 0) {
          table[at] = table[f * width + sym]!;
        } else {
          fail[t] = table[f * width + sym]!;
          queue[tail++] = t;
        }
      }
    }
    this.delta = table.slice(0, states * width);
    this.out = outs.slice(0, states * words);
    this.marks = new Uint8Array(states);
    for (let s = 0; s < states; s++) for (let w = 0; w < words; w++) if (this.out[s * words + w] !== 0) this.marks[s] = 1;
  }

  /** How many needs were read into literals (the rest keep their regex). */
  get size(): number {
    return this.ids.size;
  }

  /** The needs `form` may satisfy, as a bit set over the index's ids. */
  marksOf(form: string): Uint32Array {
    const found = new Uint32Array(this.words);
    const text = form.toLowerCase();
    const { ascii, symbols, delta, width, marks, out, words } = this;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const sym = c < 128 ? ascii[c]! : (symbols.get(c) ?? 0);
      s = delta[s * width + sym]!;
      if (marks[s] === 1) for (let w = 0; w < words; w++) found[w]! |= out[s * words + w]!;
    }
    return found;
  }

  /** The index's id of `need`, or undefined when it keeps its regex. */
  idOf(need: RegExp): number | undefined {
    return this.ids.get(need);
  }
}
