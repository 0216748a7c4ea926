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
  /** Filler words of the prompt that `understood` lists as matched words. */
  fillerListed: string[];
  /** Reasons of the first K results quoting evidence unrelated to the prompt. */
  unrelatedCites: { title: string; reason: string }[];
}

export interface GroupScore {
  count: number;
  ndcg: number;
  baseline: number;
}

export interface EvalReport {
  queries: QueryReport[];
  stats: SetStats;
  events: number;
  meanNdcg: number;
  meanBaseline: number;
  byClass: Record<QueryClass, GroupScore>;
  byLanguage: Record<string, GroupScore>;
  conversational: GroupScore;
  other: GroupScore;
  /** The prompts meant for the MCP tool best_next_event (which shows the first 3). */
  bestNextEvent: GroupScore;
  extractionShare: number;
  /** Prompts whose `understood` lists a filler word as matched. */
  fillerPrompts: number;
  /** Reasons quoting unrelated evidence, over every prompt's first K results. */
  unrelatedCites: number;
}

/** What a report is held to: mean and per-class nDCG@10 at least, filler and unrelated evidence at most. */
export interface Gate {
  meanNdcg: number;
  classNdcg: Record<QueryClass, number>;
  extractionShare: number;
  fillerPrompts: number;
  unrelatedCites: number;
}

export function groupScore(reports: readonly QueryReport[]): GroupScore {
  const n = reports.length;
  return {
    count: n,
    ndcg: n ? reports.reduce((s, r) => s + r.ndcg, 0) / n : Number.NaN,
    baseline: n ? reports.reduce((s, r) => s + r.baselineNdcg, 0) / n : Number.NaN,
  };
}

/** Where `report` falls short of `gate`; empty when it passes. */
export function gateFailures(report: EvalReport, gate: Gate): string[] {
  const out: string[] = [];
  if (!(report.meanNdcg >= gate.meanNdcg)) out.push(`mean nDCG@${K} ${f3(report.meanNdcg)} < ${gate.meanNdcg}`);
  for (const c of QUERY_CLASSES) {
    const score = report.byClass[c].ndcg;
    if (!(score >= gate.classNdcg[c])) out.push(`${c} ${f3(score)} < ${gate.classNdcg[c]}`);
  }
  if (!(report.extractionShare >= gate.extractionShare))
    out.push(`extraction ${pct(report.extractionShare)} < ${pct(gate.extractionShare)}`);
  if (report.fillerPrompts > gate.fillerPrompts)
    out.push(`filler listed as matched words in ${report.fillerPrompts} prompts > ${gate.fillerPrompts}`);
  if (report.unrelatedCites > gate.unrelatedCites)
    out.push(`${report.unrelatedCites} reasons citing unrelated evidence > ${gate.unrelatedCites}`);
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
  return `  ${label.padEnd(16)}${String(g.count).padStart(4)}   ${f3(g.ndcg)}   ${f3(g.baseline)}   ${gain}`;
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
  lines.push(`  nDCG@${K}            n   ours    BM25    gain`);
  for (const c of QUERY_CLASSES) lines.push(scoreLine(c, report.byClass[c]));
  lines.push('');
  for (const [lang, g] of Object.entries(report.byLanguage)) lines.push(scoreLine(lang, g));
  lines.push(scoreLine('conversational', report.conversational));
  lines.push(scoreLine('other', report.other));
  lines.push(scoreLine('best_next_event', report.bestNextEvent));
  lines.push('');
  lines.push(scoreLine('all', { count: s.total, ndcg: report.meanNdcg, baseline: report.meanBaseline }));
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
    `CI gate, issue 22's targets (mean ≥ ${gate.meanNdcg}, every class ≥ ${Math.min(...Object.values(gate.classNdcg))}, ` +
      `extraction ≥ ${pct(gate.extractionShare)}, no filler matched, no unrelated evidence): ` +
      `${failures.length ? `FAIL — ${failures.join('; ')}` : 'PASS'}`,
  );
  return lines.join('\n');
}
