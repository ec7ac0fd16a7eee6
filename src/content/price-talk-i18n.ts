// PRICE_TALK in Spanish, Portuguese, French, German and Italian: "buy now" and "it will go up".
// A rise is a call only when it is said of a token, of its price, or with the subject left out
// after a call ("compra ya, va a subir"); "la latencia va a subir" is a prediction about latency.
import { lazyPhrase, type PhrasePattern } from './phrases.ts';
import { CAPS_TICKER, CASHTAG, COIN_STRICT } from './price-talk-vocab.ts';

// Sources here, compiled on first use (lazyPhrase) with the "iu" flags. A gate is a piece of its
// pattern every match contains (the verbs after a subject, "la luna"): a text without it skips the
// pattern's lookbehinds (phrases.ts).
const re = (source: string): string => source;
const B = String.raw`(?<![\p{L}\p{N}_])`;
const E = String.raw`(?![\p{L}\p{N}_])`;
const TOKEN = `(?:${CASHTAG}|${CAPS_TICKER}|${COIN_STRICT})`;
// A clause whose subject was left out: it starts the text or follows punctuation.
const NO_SUBJECT = String.raw`(?<=^|[.!?¡¿,;:—–\-] ?)`;

const subjectThen = (subjects: string, verbs: string): string => `(?:${NO_SUBJECT}|${B}(?:${TOKEN}|${subjects}) )(?:${verbs})${E}`;
/** The gate of a subjectThen pattern: its verbs. */
const verbsOf = (verbs: string): string => `(?:${verbs})${E}`;

// The verbs of a rise, by language: each pattern below is gated on its own.
const ES_RISE = String.raw`(?:va|van) a (?:subir|explotar|despegar|volar|bombear|pumpear|multiplicarse|dispararse|la luna|x\d+)|subir[aá]|explotar[aá]|despegar[aá]|se disparar[aá]`;
const PT_RISE = `(?:vai|v[aã]o|ir[aá]) (?:subir|explodir|bombar|decolar|disparar|(?:pra|para a|para) lua|multiplicar)|subir[aá]|explodir[aá]|decolar[aá]|disparar[aá]`;
const FR_RISE = String.raw`va (?:monter|exploser|grimper|s'envoler|pomper|d[ée]coller|flamber|doubler|tripler|x\d+)|montera|explosera|grimpera|s'envolera|d[ée]collera`;
const DE_RISE = `(?:wird|werden) (?:bald |sicher |definitiv )?(?:steigen|explodieren|pumpen|durch die decke gehen|abheben|sich verdoppeln|zum mond)`;
const IT_RISE = `salir[àa]|esploder[àa]|andr[àa] (?:alla luna|su)`;

// The imperatives of "buy" and "sell", by language, and what may stand between them and a token.
const ES_CALL = `c[oó]mpr(?:a|e|en|ad|ar)(?:lo|la|los|las)?|v[eé]nd(?:e|a|an|ed|er)(?:lo|la|los|las)?`;
const ES_DET = `(?:tu|tus|su|sus|el|la|los|las|m[aá]s|algo de) `;
const PT_CALL = `(?:compr(?:e|a|em|ar)|vend(?:e|a|am|er))(?:-(?:o|a|os|as))?`;
const PT_DET = `(?:seu|seus|sua|suas|o|a|os|as|mais|um pouco de) `;
const IT_CALL = `compra(?:lo|la|te)?|vendi(?:lo|la)?|vendete`;
const IT_DET = `(?:il|lo|la|i|gli|le|del|dei|degli|della|delle|un po' di|altri|altro) `;

/**
 * A call on a token, then in the same sentence a rise with its subject left out after a
 * conjunction ("Compra SOL porque va a subir"): the i18n form of price-talk-split.ts. The rise
 * must follow the conjunction directly, so "porque la latencia va a subir" names what rises.
 * French and German say the subject ("car il va exploser", "denn er wird steigen"), which the
 * rise patterns below already read. A rise followed by an article has an object ("va a explotar
 * la base de datos"): a thing that blows up, not a price.
 */
const callThenRise = (call: string, det: string, conjunctions: string, rise: string, articles: string): string =>
  `${B}(?:${call}) (?:${det})?${TOKEN}[^.!?]{0,40}?${B}(?:${conjunctions}) (?:${rise})${E}(?! (?:${articles})${E})`;

const I18N: { description: string; regex: string; gate?: string; need?: readonly RegExp[] }[] = [
  {
    description: 'es: "compra ya", "véndelo ahora"',
    regex: re(
      `${B}(?:${ES_CALL}) (?:${ES_DET})?(?:${TOKEN} )?(?:ya(?! no${E})|ahora(?: mismo)?|hoy mismo|r[aá]pido|antes de que (?:suba|explote|despegue|sea tarde)|mientras (?:est[eé]|est[aá]) barat[oa])${E}`,
    ),
    need: [/compr|cómpr|vend|vénd/i],
  },
  {
    description: 'es: "va a subir", "subirá" said of a token',
    regex: re(subjectThen(`el precio|su precio|esta (?:moneda|cripto)|este (?:token|coin)|esto`, ES_RISE)),
    gate: verbsOf(ES_RISE),
    need: [/va a|van a|subir|explotar|despegar|disparar/i],
  },
  {
    description: 'es: a call, then "porque va a subir"',
    regex: re(callThenRise(ES_CALL, ES_DET, 'porque|que|pues|ya que|y', ES_RISE, 'el|la|los|las|un|una|unos|unas|en|de|del|al')),
    gate: verbsOf(ES_RISE),
    need: [/compr|cómpr|vend|vénd/i, /va a|van a|subir|explotar|despegar|disparar/i],
  },
  {
    description: 'es: "a la luna" said of a token',
    regex: re(`${TOKEN} (?:va |van |se va |directo |rumbo )?(?:a|hasta) la luna${E}`),
    gate: ' la luna',
    need: [/ la luna/i],
  },
  {
    description: 'pt: "compre agora", "compra já"',
    regex: re(
      `${B}${PT_CALL} (?:${PT_DET})?(?:${TOKEN} )?(?:j[aá](?! n[ãa]o${E})|agora(?: mesmo)?|hoje mesmo|logo|antes que (?:suba|exploda|seja tarde)|enquanto (?:est[aá]|t[aá]) barat[oa])${E}`,
    ),
    need: [/compr|vend/i],
  },
  {
    description: 'pt: "vai subir", "vai explodir" said of a token',
    regex: re(subjectThen(`o pre[cç]o|esse token|essa moeda|isso`, PT_RISE)),
    gate: verbsOf(PT_RISE),
    need: [/vai |vao |vão |ira |irá |subir|explodir|decolar|disparar/i],
  },
  {
    description: 'pt: a call, then "porque vai subir"',
    regex: re(callThenRise(PT_CALL, PT_DET, 'porque|que|pois|j[aá] que|e', PT_RISE, 'o|os|as|um|uma|no|na|do|da|em|de')),
    gate: verbsOf(PT_RISE),
    need: [/compr|vend/i, /vai |vao |vão |ira |irá |subir|explodir|decolar|disparar/i],
  },
  { description: 'pt: "para a lua" said of a token', regex: re(`${TOKEN} (?:vai |rumo |direto )?(?:pra|para a|[àa]) lua${E}`), gate: ' lua', need: [/ lua/i] },
  {
    description: 'fr: "achète maintenant", "vendez tout de suite"',
    regex: re(
      `${B}(?:ach[eè]te(?:z|r)?|vend(?:s|ez|re)?)(?:-(?:le|la|les))? (?:(?:du|des|le|la|les|ton|tes|votre|vos|plus de) )?(?:${TOKEN} )?(?:maintenant|vite|tout de suite|aujourd'hui|imm[ée]diatement|d[eè]s maintenant|avant (?:que|qu'il|qu'elle|la hausse|le pump))${E}`,
    ),
    need: [/achete|achète|vend/i],
  },
  {
    description: 'fr: "ça va monter" said of a token (not "il va monter le serveur")',
    regex: re(`${subjectThen(`[çc]a|il|elle|le prix|le cours|ce token|cette crypto|ce coin`, FR_RISE)}(?! (?:le|la|les|un|une|des|l'|sur|dans|au)${E})`),
    gate: verbsOf(FR_RISE),
    need: [/va |montera|explosera|grimpera|envolera|collera/i],
  },
  {
    description: 'fr: "vers la lune" said of a token',
    regex: re(`${TOKEN} (?:va |part )?(?:vers|jusqu'[àa]|direction) la lune${E}`),
    gate: ' la lune',
    need: [/ la lune/i],
  },
  {
    description: 'de: "jetzt kaufen", "kauf sofort"',
    regex: re(
      `${B}(?:(?:jetzt|sofort|schnell|heute noch|noch heute) (?:${TOKEN} |noch )?(?:kaufen|verkaufen|einsteigen|zuschlagen)|bevor (?:es|er|der kurs|der preis|${TOKEN}) (?:steigt|explodiert|abhebt)|(?<!(?:wir|ich|sie|er|die|der|das) )(?:kauf|kauft|kaufe|verkauf|verkauft|verkaufe|kaufen sie|verkaufen sie|steig ein|steigt ein) (?:${TOKEN} )?(?:jetzt|sofort|heute|schnell|noch heute|bevor))${E}`,
    ),
    need: [/kauf|einsteigen|zuschlagen|bevor|steig/i],
  },
  {
    description: 'de: "wird steigen" said of a token',
    regex: re(subjectThen(`es|er|der kurs|der preis|dieser token|diese coin`, DE_RISE)),
    gate: verbsOf(DE_RISE),
    need: [/wird |werden /i],
  },
  { description: 'de: "zum Mond" said of a token', regex: re(`${TOKEN} (?:geht |fliegt )?(?:zum|auf den) mond${E}`), gate: ' mond', need: [/ mond/i] },
  {
    description: 'it: "compra ora", "salirà"',
    regex: re(`${B}(?:${IT_CALL}) (?:ora|adesso|subito|oggi)${E}|${subjectThen(`il prezzo|questo token`, IT_RISE)}`),
    gate: `(?:${IT_CALL}) (?:ora|adesso|subito|oggi)${E}|${verbsOf(IT_RISE)}`,
    need: [/compra|vend|salir|esploder|andr/i],
  },
  {
    description: 'it: a call, then "perché salirà"',
    regex: re(callThenRise(IT_CALL, IT_DET, 'perch[ée]|che|poich[ée]|e|quindi', IT_RISE, 'il|lo|la|i|gli|le|un|una|nel|nella|del|della|in|di')),
    gate: verbsOf(IT_RISE),
    need: [/compra|vend/i, /salir|esploder|andr/i],
  },
];

export const I18N_PATTERNS: PhrasePattern[] = I18N.map((p) => lazyPhrase(p.description, p.regex, 'iu', p.gate, p.need));
