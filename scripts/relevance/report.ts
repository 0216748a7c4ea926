/**
 * The relevance evaluation's results, the gates they are held to, and the printed report (`npm run eval`).
 */
import { QUERY_CLASSES, type QueryClass, type SetStats } from './queries.js';

export const K = 10;

export interface Extraction {
  ok: boolean;
  city: { expected: string | null; actual: string | null; ok: boolean };
  topics: { expected: string[]; actual: string[]; ok: boolean };
  window: { expected: string | null; actual: string | null; ok: boolean };
}

/** A returned event as the report shows it: title and the grade it was judged (0 when unjudged). */
export interface Shown {
  title: string;
  grade: number;
}

export interface QueryReport {
  q: string;
  lang: string;
  class: QueryClass;
  conversational: boolean;
  tool: string | undefined;
  params: Record<string, string>;
  ndcg: number;
  /** nDCG@10 of the whole answer: the events listed, then the near misses shown apart (`alternatives`). */
  answerNdcg: number;
  /** nDCG@10 of the plain BM25 baseline (see bm25-baseline.ts) for the same prompt and candidates. */
  baselineNdcg: number;
  extraction: Extraction;
  understood: string;
  top: Shown[];
  baselineTop: Shown[];
  /** Judged events missing from the engine's first K, best grade first. */
  missing: Shown[];
  relevantCount: number;
  total: number;
  /** Whether the prompt states its constraints (issue 32's prompts). */
  constrained: boolean;
  /** Events listed (up to the query's limit): precision and claims are over all of them. */
  listed: number;
  /** Share of the listed events meeting the prompt's labelled constraints (1 when none is listed). */
  precision?: number;
  /** The same for the BM25 baseline's list. */
  baselinePrecision?: number;
  /** Share of the listed events meeting everything `understood` says of them (1 when none is listed). */
  claimsKept: number;
  /** Listed events breaking a claim, and which (the first five). */
  broken: { title: string; unmet: string[] }[];
  /** For a prompt with a language wish: whether the events held in that language come first. */
  preferenceKept?: boolean;
  /** Filler words of the prompt that `understood` lists as matched words. */
  fillerListed: string[];
  /** Reasons of the first K results quoting evidence unrelated to the prompt. */
  unrelatedCites: { title: string; reason: string }[];
}

export interface GroupScore {
  count: number;
  ndcg: number;
  /** Of the whole answer: the events listed, then the near misses (see QueryReport.answerNdcg). */
  answer: number;
  baseline: number;
}

/** Promises kept by a group of prompts: means over its prompts. */
export interface PromiseScore {
  count: number;
  /** Mean precision against the labelled constraints, and the baseline's (prompts with constraints only). */
  precision: number;
  baselinePrecision: number;
  /** Mean share of listed events keeping every claim of `understood`. */
  claimsKept: number;
  /** Prompts whose every listed event keeps every claim. */
  allKept: number;
}

export interface EvalReport {
  queries: QueryReport[];
  stats: SetStats;
  events: number;
  meanNdcg: number;
  meanBaseline: number;
  /** Mean nDCG@10 of the prompts without constraints (issue 22's set), which issue 32 must not lower. */
  olderMeanNdcg: number;
  olderMeanBaseline: number;
  /** The whole set, and issue 22's set (the prompts without constraints), as groups. */
  overall: GroupScore;
  older: GroupScore;
  /** Issue 32's prompts (with constraints). */
  constrained: GroupScore;
  promises: Record<QueryClass, PromiseScore>;
  constrainedPromises: PromiseScore;
  byClass: Record<QueryClass, GroupScore>;
  byLanguage: Record<string, GroupScore>;
  conversational: GroupScore;
  other: GroupScore;
  /** The prompts meant for the MCP tool best_next_event (which shows the first 3). */
  bestNextEvent: GroupScore;
  extractionShare: number;
  /** Prompts whose `understood` lists a filler word as matched; of issue 22's set alone. */
  fillerPrompts: number;
  olderFillerPrompts: number;
  /** Reasons quoting unrelated evidence, over every prompt's first K results. */
  unrelatedCites: number;
}

/**
 * What a report is held to: nDCG@10 of the answers (events, then near misses: QueryReport.answerNdcg) at least, over
 * issue 22's set (the prompts without constraints) and per class (classes not listed are not gated); filler and
 * unrelated evidence at most; and the claims of `understood` kept by every event listed for a prompt with constraints.
 */
export interface Gate {
  meanNdcg: number;
  classNdcg: Partial<Record<QueryClass, number>>;
  /** Whether the prompts with constraints are held to the filler check and to keeping their claims. */
  constrained: boolean;
  /** The least share of listed events keeping every claim, for each prompt with constraints. */
  claimsKept: number;
  extractionShare: number;
  fillerPrompts: number;
  unrelatedCites: number;
}

export function groupScore(reports: readonly QueryReport[]): GroupScore {
  const n = reports.length;
  return {
    count: n,
    ndcg: n ? reports.reduce((s, r) => s + r.ndcg, 0) / n : Number.NaN,
    answer: n ? reports.reduce((s, r) => s + r.answerNdcg, 0) / n : Number.NaN,
    baseline: n ? reports.reduce((s, r) => s + r.baselineNdcg, 0) / n : Number.NaN,
  };
}

export function promiseScore(reports: readonly QueryReport[]): PromiseScore {
  const n = reports.length;
  const constrained = reports.filter((r) => r.precision !== undefined);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  return {
    count: n,
    precision: mean(constrained.map((r) => r.precision!)),
    baselinePrecision: mean(constrained.map((r) => r.baselinePrecision!)),
    claimsKept: mean(reports.map((r) => r.claimsKept)),
    allKept: reports.filter((r) => r.claimsKept === 1).length,
  };
}

/** Where `report` falls short of `gate`; empty when it passes. */
export function gateFailures(report: EvalReport, gate: Gate): string[] {
  const out: string[] = [];
  const mean = report.older.answer;
  if (!(mean >= gate.meanNdcg)) out.push(`mean nDCG@${K} of issue 22's set ${f3(mean)} < ${gate.meanNdcg}`);
  for (const [c, min] of Object.entries(gate.classNdcg) as [QueryClass, number][]) {
    const score = report.byClass[c].answer;
    if (!(score >= min)) out.push(`${c} ${f3(score)} < ${min}`);
  }
  if (!(report.extractionShare >= gate.extractionShare))
    out.push(`extraction ${pct(report.extractionShare)} < ${pct(gate.extractionShare)}`);
  const filler = gate.constrained ? report.fillerPrompts : report.olderFillerPrompts;
  if (filler > gate.fillerPrompts)
    out.push(`filler listed as matched words in ${filler} prompts > ${gate.fillerPrompts}`);
  if (report.unrelatedCites > gate.unrelatedCites)
    out.push(`${report.unrelatedCites} reasons citing unrelated evidence > ${gate.unrelatedCites}`);
  if (gate.constrained) {
    const breaking = report.queries.filter((r) => r.constrained && !(r.claimsKept >= gate.claimsKept));
    if (breaking.length > 0)
      out.push(`${breaking.length} prompts with constraints keep less than ${gate.claimsKept} of their claims`);
  }
  return out;
}

function f2(x: number): string {
  return Number.isNaN(x) ? '  – ' : x.toFixed(2);
}
function f3(x: number): string {
  return Number.isNaN(x) ? '  –  ' : x.toFixed(3);
}
function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

function describeParams(params: Record<string, string>): string {
  const entries = Object.entries(params);
  return entries.length ? ` [${entries.map(([k, v]) => `${k}=${v}`).join(' ')}]` : '';
}

function extractionNote(x: Extraction): string {
  const wrong: string[] = [];
  if (!x.city.ok) wrong.push(`city ${x.city.actual ?? '—'} ≠ ${x.city.expected ?? '—'}`);
  if (!x.topics.ok) wrong.push(`topics ${x.topics.actual.join(',') || '—'} ≠ ${x.topics.expected.join(',') || '—'}`);
  if (!x.window.ok) wrong.push(`window ${x.window.actual ?? '—'} ≠ ${x.window.expected ?? '—'}`);
  return wrong.length ? `  extraction ✗ (${wrong.join('; ')})` : '';
}

function shownList(shown: readonly Shown[], n: number): string {
  return shown.length
    ? shown
        .slice(0, n)
        .map((t, i) => `${i + 1}. ${t.title} (${t.grade})`)
        .join(' · ')
    : '(nothing)';
}

function scoreLine(label: string, g: GroupScore): string {
  const gain = Number.isNaN(g.ndcg) ? '' : `${g.ndcg - g.baseline >= 0 ? '+' : ''}${(g.ndcg - g.baseline).toFixed(3)}`;
  return `  ${label.padEnd(16)}${String(g.count).padStart(4)}   ${f3(g.ndcg)}   ${f3(g.answer)}    ${f3(g.baseline)}   ${gain}`;
}

function promiseLine(label: string, p: PromiseScore): string {
  const precision = Number.isNaN(p.precision) ? '     –        ' : `${f3(p.precision)} (${f3(p.baselinePrecision)})`;
  return `  ${label.padEnd(16)}${String(p.count).padStart(4)}   ${precision}    ${f3(p.claimsKept)}     ${String(p.allKept).padStart(4)}/${p.count}`;
}

/**
 * The printed report: one line per prompt (ours, BM25, class, language, prompt, extraction), then nDCG@10 per class,
 * language and kind beside the baseline, the checks on `understood` and reasons, the ten worst prompts with what
 * came back, and the gate.
 */
export function formatReport(report: EvalReport, gate: Gate): string {
  const lines: string[] = [`nDCG@${K} ours · BM25 · class · lang · prompt`];
  for (const r of report.queries) {
    const flags = [
      r.fillerListed.length ? `  filler matched: ${r.fillerListed.join(', ')}` : '',
      r.unrelatedCites.length ? `  unrelated evidence: ${r.unrelatedCites.length}` : '',
    ].join('');
    lines.push(
      `${f2(r.ndcg)} ${f2(r.baselineNdcg)}  ${r.class.padEnd(9)} ${r.lang}  “${r.q}”${describeParams(r.params)}${extractionNote(r.extraction)}${flags}`,
    );
  }

  const s = report.stats;
  lines.push('');
  lines.push(
    `${s.total} queries over ${report.events} events · ${s.conversational} conversational (${pct(s.conversational / s.total)}) · ` +
      `${s.nonEnglish} German/French/Italian (${pct(s.nonEnglish / s.total)}) · ${s.emptyJudgements} with nothing relevant · ` +
      `${s.tool} meant for best_next_event`,
  );
  lines.push('');
  lines.push(`  nDCG@${K}            n   ours    answer   BM25    gain (ours − BM25)`);
  for (const c of QUERY_CLASSES) lines.push(scoreLine(c, report.byClass[c]));
  lines.push('');
  for (const [lang, g] of Object.entries(report.byLanguage)) lines.push(scoreLine(lang, g));
  lines.push(scoreLine('conversational', report.conversational));
  lines.push(scoreLine('other', report.other));
  lines.push(scoreLine('best_next_event', report.bestNextEvent));
  lines.push('');
  lines.push(scoreLine('all', report.overall));
  lines.push(scoreLine('older set', report.older));
  lines.push(scoreLine('constraints set', report.constrained));
  lines.push('');
  lines.push('promises kept      n   precision (BM25)   claims kept   all kept');
  for (const c of QUERY_CLASSES) lines.push(promiseLine(c, report.promises[c]));
  lines.push(promiseLine('with constraints', report.constrainedPromises));
  const wishes = report.queries.filter((r) => r.preferenceKept !== undefined);
  lines.push(
    `language wishes kept (held in the language asked first): ${wishes.filter((r) => r.preferenceKept).length}/${wishes.length}`,
  );
  lines.push('');
  const extracted = report.queries.filter((r) => r.extraction.ok).length;
  lines.push(`extraction right: ${pct(report.extractionShare)} (${extracted}/${s.total})`);
  const fillerExamples = report.queries
    .filter((r) => r.fillerListed.length)
    .slice(0, 4)
    .map((r) => `“${r.q}” → ${r.fillerListed.join(', ')}`);
  lines.push(
    `filler listed as matched words: ${report.fillerPrompts} of ${s.conversational} conversational prompts${fillerExamples.length ? ` (e.g. ${fillerExamples.join('; ')})` : ''}`,
  );
  const cites = report.queries.flatMap((r) => r.unrelatedCites.map((c) => `“${r.q}”: ${c.title} — ${c.reason}`));
  lines.push(
    `reasons citing unrelated evidence: ${report.unrelatedCites}${cites.length ? ` (e.g. ${cites.slice(0, 4).join('; ')})` : ''}`,
  );

  lines.push('');
  const breaking = report.queries.filter((r) => r.constrained && r.claimsKept < 1);
  lines.push(`prompts with constraints whose list breaks a claim of \`understood\`: ${breaking.length}`);
  for (const r of breaking.slice(0, 12)) {
    lines.push(`  ${f2(r.claimsKept)} [${r.class} · ${r.lang}] “${r.q}” — understood: ${r.understood}`);
    for (const b of r.broken.slice(0, 2)) lines.push(`      ${b.title}: not ${b.unmet.join(', ')}`);
  }

  lines.push('');
  lines.push(`the ${K} worst prompts:`);
  const worst = [...report.queries].sort((a, b) => a.ndcg - b.ndcg).slice(0, 10);
  for (const r of worst) {
    lines.push(
      `${f2(r.ndcg)} (BM25 ${f2(r.baselineNdcg)})  [${r.class} · ${r.lang}] “${r.q}”${describeParams(r.params)}`,
    );
    lines.push(`      understood: ${r.understood}`);
    lines.push(`      ours: ${shownList(r.top, 5)}  — ${r.total} matches, ${r.relevantCount} judged relevant`);
    const missing = r.missing.slice(0, 5).map((t) => `${t.title} (${t.grade})`);
    if (missing.length) lines.push(`      judged, not in the first ${K}: ${missing.join(' · ')}`);
    lines.push(`      BM25: ${shownList(r.baselineTop, 3)}`);
  }

  lines.push('');
  const failures = gateFailures(report, gate);
  lines.push(
    `CI gate (answers' nDCG@${K} ≥ ${gate.meanNdcg} over issue 22's set, every gated class ≥ ${Math.min(...Object.values(gate.classNdcg))}, ` +
      `extraction ≥ ${pct(gate.extractionShare)}, no filler matched, no unrelated evidence` +
      `${gate.constrained ? `, claims kept ≥ ${gate.claimsKept} for every prompt with constraints` : ''}): ` +
      `${failures.length ? `FAIL — ${failures.join('; ')}` : 'PASS'}`,
  );
  return lines.join('\n');
}
