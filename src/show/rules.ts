// The rules of a Show root's text (02-extensions "Show root" and "Show lane" limits). Every problem
// is collected, so one 422 SHOW_INVALID lists them all with their line and a fix.
import { evidenceEntries, evidenceVerdict, linkVerdict, namedSource, type UrlVerdict } from './evidence.ts';
import { BODY_MAX, BODY_MIN, FORMATS, HOOK_MAX, HOOK_MIN, PART_MAX, THREAD_PARTS_MAX } from './settings.ts';
import { audienceOk, codePoints, formatOk, hookLengthOk, linksIn, publishedText, type Settings, type ShowRoot, weightedLength } from './text.ts';

export interface Problem {
  /** Where: "title", "body", or a body line as "line 3". */
  where: string;
  rule: string;
  fix: string;
  [detail: string]: unknown;
}

const at = (line: number) => `line ${line}`;

const URL_FIX: Record<Exclude<UrlVerdict, 'ok'>, string> = {
  not_https: 'write it as a full https:// URL (a bare domain counts as a link)',
  not_a_url: 'write a well-formed https URL without user info',
  host_not_allowed: 'use a host from the allowed list of this problem',
  paper_host: 'papers are not evidence: cite the data host the paper took its numbers from',
};

function linkProblems(r: ShowRoot, s: Settings, out: Problem[]): void {
  const links = linksIn(r.text);
  if (links.length > 1) out.push({ where: 'body', rule: 'one_link_at_most', links, fix: 'keep at most one link in the text to publish' });
  for (const link of links) {
    const v = linkVerdict(link, s.lists);
    if (v !== 'ok') out.push({ where: 'body', rule: `link_${v}`, link, fix: URL_FIX[v], ...(v === 'host_not_allowed' ? { allowed: s.lists.linkHosts } : {}) });
  }
}

/** Digits in the text to publish, its link's own characters aside (an arXiv id is not a claim). */
const hasDigits = (text: string): boolean => /\p{Nd}/u.test(linksIn(text).reduce((t, l) => t.replace(l, ' '), text));

function evidenceProblems(r: ShowRoot, s: Settings, baseUrl: string, out: Problem[]): void {
  const ev = r.meta.get('evidence');
  if (!ev) {
    out.push({
      where: 'body',
      rule: 'evidence_line_missing',
      fix: 'add "Evidence: <source>, <date>, <https URL>" (or "Evidence: none" when the text has no digits)',
    });
    return;
  }
  const digits = hasDigits(r.text);
  if (/^none\.?$/i.test(ev.value)) {
    if (digits)
      out.push({ where: at(ev.line), rule: 'evidence_required', fix: 'the text has digits: name the source, its date and its https URL on a data host' });
    return;
  }
  for (const e of evidenceEntries(ev.value)) {
    const base = { where: at(ev.line), entry: e.text.slice(0, 200) };
    if (!namedSource(e)) out.push({ ...base, rule: 'evidence_source_unnamed', fix: 'name the source (who published the data)' });
    if (!e.date) out.push({ ...base, rule: 'evidence_undated', fix: 'give the date of the data as 2026-11-23 (or 23 Nov 2026)' });
    if (!e.url) {
      out.push({ ...base, rule: 'evidence_url_missing', fix: 'give the full https URL of the data', allowed: s.lists.evidenceHosts });
      continue;
    }
    const v = evidenceVerdict(e.url, s.lists, baseUrl);
    if (v !== 'ok')
      out.push({ ...base, rule: `evidence_${v}`, url: e.url, fix: URL_FIX[v], ...(v === 'host_not_allowed' ? { allowed: s.lists.evidenceHosts } : {}) });
  }
}

function lengthProblems(r: ShowRoot, s: Settings, out: Problem[]): void {
  const published = publishedText(r);
  const weighted = weightedLength(published);
  if (weighted > s.maxWeighted) {
    out.push({
      where: 'body',
      rule: 'too_long_to_publish',
      weighted,
      max: s.maxWeighted,
      fix: `shorten the text to publish to ${s.maxWeighted} weighted characters (emoji and CJK count 2, a link as written); the credit line takes the rest of 280`,
    });
  }
  if (r.meta.get('format')?.value.toLowerCase() !== 'thread') return;
  if (r.parts.length > THREAD_PARTS_MAX)
    out.push({
      where: 'body',
      rule: 'thread_too_many_parts',
      parts: r.parts.length,
      max: THREAD_PARTS_MAX,
      fix: `keep the thread to ${THREAD_PARTS_MAX} parts separated by --- lines`,
    });
  r.parts.forEach((p, i) => {
    if (p === '') out.push({ where: 'body', rule: 'thread_part_empty', part: i + 1, fix: 'remove the empty part' });
    const w = weightedLength(p);
    if (w > PART_MAX)
      out.push({
        where: 'body',
        rule: 'thread_part_too_long',
        part: i + 1,
        weighted: w,
        max: PART_MAX,
        fix: `keep each part within ${PART_MAX} weighted characters`,
      });
  });
}

function metaProblems(r: ShowRoot, out: Problem[]): void {
  const format = r.meta.get('format');
  if (!format)
    out.push({ where: 'body', rule: 'format_line_missing', allowed: FORMATS, fix: 'add "Format: <one of the allowed list of this problem>" after the text' });
  else if (!formatOk(format.value))
    out.push({
      where: at(format.line),
      rule: 'format_unknown',
      value: format.value.slice(0, 40),
      allowed: FORMATS,
      fix: 'use one of the allowed list of this problem',
    });
  const audience = r.meta.get('audience');
  if (!audience) out.push({ where: 'body', rule: 'audience_line_missing', fix: 'add "Audience: <who outside the crew cares, concretely>"' });
  else if (!audienceOk(audience.value))
    out.push({
      where: at(audience.line),
      rule: 'audience_vague',
      fix: 'describe who cares concretely ("Rust developers", "cryptographers", "solo devs shipping Solana programs"), not a catch-all like everyone or a whole trade like developers',
    });
  for (const m of r.repeated) out.push({ where: at(m.line), rule: 'meta_line_repeated', fix: 'write each meta line once' });
  for (const line of r.strayLines)
    out.push({
      where: at(line),
      rule: 'text_after_meta_lines',
      fix: 'the text to publish comes first; only Format:, Audience:, Evidence: and Media: lines follow it',
    });
}

/** Every problem of a Show root titled with `hook`, in reading order of the rules. */
export function showProblems(r: ShowRoot, body: string, s: Settings, baseUrl: string): Problem[] {
  const out: Problem[] = [];
  if (!hookLengthOk(r.hook)) {
    out.push({
      where: 'title',
      rule: 'hook_length',
      length: codePoints(r.hook),
      min: HOOK_MIN,
      max: HOOK_MAX,
      fix: `write a hook of ${HOOK_MIN} to ${HOOK_MAX} characters`,
    });
  }
  if (r.firstLine !== r.hook)
    out.push({ where: at(1), rule: 'hook_not_first_line', fix: 'start the body with the hook exactly as the title gives it after "Show:"' });
  const n = codePoints(body);
  if (n < BODY_MIN || n > BODY_MAX)
    out.push({ where: 'body', rule: 'body_length', length: n, min: BODY_MIN, max: BODY_MAX, fix: `write a body of ${BODY_MIN} to ${BODY_MAX} characters` });
  if (r.textLines === 0) out.push({ where: 'body', rule: 'text_missing', fix: 'put the text to publish before the meta lines' });
  metaProblems(r, out);
  lengthProblems(r, s, out);
  linkProblems(r, s, out);
  evidenceProblems(r, s, baseUrl, out);
  return out;
}
