import { pathToFileURL } from 'node:url';
import { DateTime } from 'luxon';
import type { CatalogueEvent } from '../src/catalogue/event.js';
import type { ServingContext } from '../src/context.js';
import { resolveCity } from '../src/places/gazetteer.js';
import { endsAt } from '../src/query/index/indexed-event.js';
import { parseSearchParams } from '../src/query/params.js';
import { type SearchResult, zoneOf } from '../src/query/read-index.js';
import { inEnglish } from '../src/render/phrase.js';
import { describeQuery } from '../src/render/restate.js';
import { bm25Baseline } from './relevance/bm25-baseline.js';
import { buildCatalogue, printCatalogue } from './relevance/catalogue.js';
import { claimsOf } from './relevance/claims.js';
import { type Constraints, shareMeeting, unmet } from './relevance/constraints.js';
import { citesRelatedEvidence, fillerListed, quoted } from './relevance/evidence.js';
import {
  CONSTRAINT_CLASSES,
  type LabelledQuery,
  QUERY_CLASSES,
  type QueryClass,
  readQueries,
  setStats,
} from './relevance/queries.js';
import {
  type EvalReport,
  type Extraction,
  formatReport,
  type Gate,
  gateFailures,
  groupScore,
  K,
  promiseScore,
  type QueryReport,
} from './relevance/report.js';

export { buildCatalogue, EVAL_NOW, loadEvaluationCatalogue } from './relevance/catalogue.js';
export type { LabelledQuery, QueryClass } from './relevance/queries.js';
export {
  CONSTRAINT_CLASSES,
  FAILURE_CLASSES,
  QUERY_CLASSES,
  readQueries,
  SET_REQUIREMENTS,
  setShortfalls,
  setStats,
} from './relevance/queries.js';
export { type EvalReport, formatReport, type Gate, gateFailures, type QueryReport } from './relevance/report.js';

function everyClass(classes: readonly QueryClass[], score: number): Partial<Record<QueryClass, number>> {
  return Object.fromEntries(classes.map((c) => [c, score]));
}

/**
 * What issue 22 asks of the engine, over the prompts written for it: mean nDCG@10 ≥ 0.95, every class ≥ 0.9, no
 * filler matched, no unrelated evidence.
 */
export const ISSUE_22_TARGETS: Gate = {
  meanNdcg: 0.95,
  classNdcg: everyClass(
    QUERY_CLASSES.filter((c) => !CONSTRAINT_CLASSES.includes(c)),
    0.9,
  ),
  constrained: false,
  claimsKept: 0,
  extractionShare: 0.9,
  fillerPrompts: 0,
  unrelatedCites: 0,
};

/**
 * What CI holds the engine to (test/relevance.test.ts, `npm run eval`): issue 22's targets, the extraction share CI
 * already held (95 %), and issue 32's: the answers' mean nDCG@10 over issue 22's prompts no lower than before
 * constraints filtered (0.977), every event listed for a prompt with constraints keeps every claim of `understood`,
 * those prompts' classes reach nDCG@10 ≥ 0.9 too, and no prompt's `understood` quotes its filler or wishes as matched
 * words.
 */
export const CI_GATE: Gate = {
  ...ISSUE_22_TARGETS,
  meanNdcg: 0.977,
  extractionShare: 0.95,
  classNdcg: { ...ISSUE_22_TARGETS.classNdcg, ...everyClass(CONSTRAINT_CLASSES, 0.9) },
  constrained: true,
  claimsKept: 1,
};

/** Discounted cumulative gain of the first K grades. */
function dcg(grades: number[]): number {
  return grades.slice(0, K).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

export function ndcgAtK(returned: number[], judged: number[]): number {
  if (judged.length === 0) return returned.length === 0 ? 1 : 0;
  const ideal = dcg([...judged].sort((a, b) => b - a));
  return dcg(returned) / ideal;
}

/**
 * Maps each judged key (id, else an unambiguous title) to its event; throws on keys that are unknown or ambiguous,
 * and on judgements no engine could meet: an event over at "now", not listed, or in another country than the
 * prompt's other judged events or its `country` parameter.
 */
function resolveJudgements(q: LabelledQuery, all: CatalogueEvent[], now: Date): Map<string, number> {
  const out = new Map<string, number>();
  const countries = new Set<string>(q.params?.country ? [q.params.country] : []);
  for (const [key, grade] of Object.entries(q.relevant)) {
    const byId = all.find((e) => e.id === key);
    const byTitle = all.filter((e) => e.title === key);
    if (!byId && byTitle.length !== 1) {
      throw new Error(
        `query "${q.q}": judged event "${key}" ${byTitle.length === 0 ? 'does not exist' : `is ambiguous (${byTitle.map((e) => e.id).join(', ')}); use the id`}`,
      );
    }
    const event = byId ?? byTitle[0]!;
    if (endsAt(event) <= now.getTime()) throw new Error(`query "${q.q}": judged event "${key}" is over at "now"`);
    if (event.visibility !== 'public' || event.lifecycle === 'cancelled')
      throw new Error(`query "${q.q}": judged event "${key}" is not listed`);
    countries.add(event.country);
    out.set(event.id, grade);
  }
  if (countries.size > 1) throw new Error(`query "${q.q}": judged events span ${[...countries].join(', ')}`);
  return out;
}

function localDate(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toISODate()!;
}

function checkExtraction(q: LabelledQuery, result: SearchResult): Extraction {
  const expect = q.expect ?? {};
  const u = result.understanding;
  const zone = zoneOf(result.country);

  const actualPlace = u.place?.place ?? u.home?.place ?? result.params.city;
  const expectedPlace = expect.city ? resolveCity(expect.city) : undefined;
  if (expect.city && !expectedPlace) throw new Error(`query "${q.q}": expected city "${expect.city}" is unknown`);
  const city = {
    expected: expectedPlace?.name ?? null,
    actual: actualPlace?.name ?? null,
    ok: (expectedPlace?.geonameId ?? null) === (actualPlace?.geonameId ?? null),
  };

  const actualTopics = [...new Set([...u.topics.map((t) => t.slug), ...result.params.topics])].sort();
  const expectedTopics = [...new Set(expect.topics ?? [])].sort();
  const topics = {
    expected: expectedTopics,
    actual: actualTopics,
    ok: actualTopics.length === expectedTopics.length && actualTopics.every((t, i) => t === expectedTopics[i]),
  };

  let actualWindow: string | null = null;
  if (u.window)
    actualWindow = `${localDate(u.window.from, zone)}..${localDate(new Date(u.window.to.getTime() - 1), zone)}`;
  else if (result.params.from || result.params.to)
    actualWindow = `${result.params.from ?? ''}..${result.params.to ?? ''}`;
  const expectedWindow = expect.window ? `${expect.window.from}..${expect.window.to}` : null;
  const window = { expected: expectedWindow, actual: actualWindow, ok: expectedWindow === actualWindow };

  return { ok: city.ok && topics.ok && window.ok, city, topics, window };
}

/** Runs one labelled prompt through the engine and the baseline, and scores both. */
function evaluateQuery(
  ctx: ServingContext,
  all: CatalogueEvent[],
  baseline: ReturnType<typeof bm25Baseline>,
  q: LabelledQuery,
): QueryReport {
  const now = ctx.now();
  const judged = resolveJudgements(q, all, now);
  const titleOf = new Map(all.map((e) => [e.id, e.title]));
  const params = parseSearchParams({ ...(q.params ?? {}), q: q.q });
  const result = ctx.index.search(params, now);
  const first = result.events.slice(0, K);
  const grades = first.map((r) => judged.get(r.event.id) ?? 0);
  // The answer as every output shows it: the matches, then the near misses apart.
  const answered = [...result.events, ...(result.alternatives ?? [])].slice(0, K);
  const answerGrades = answered.map((r) => judged.get(r.event.id) ?? 0);
  const baselineListed = baseline(params, result.country).slice(0, params.limit);
  const baselineIds = baselineListed.slice(0, K);
  const baselineGrades = baselineIds.map((id) => judged.get(id) ?? 0);
  const byId = new Map(all.map((e) => [e.id, e]));
  const listed = result.events.map((r) => r.event);
  const claims = claimsOf(result);
  const shownIds = new Set(first.map((r) => r.event.id));
  return {
    q: q.q,
    lang: q.lang,
    class: q.class,
    conversational: q.conversational === true,
    constrained: q.constraints !== undefined,
    tool: q.tool,
    params: q.params ?? {},
    ndcg: ndcgAtK(grades, [...judged.values()]),
    // An answer with nothing relevant keeps its word by listing nothing; near misses are shown apart, saying so.
    answerNdcg: judged.size === 0 ? ndcgAtK(grades, []) : ndcgAtK(answerGrades, [...judged.values()]),
    baselineNdcg: ndcgAtK(baselineGrades, [...judged.values()]),
    extraction: checkExtraction(q, result),
    understood: describeQuery(result.restatement),
    top: first.map((r, i) => ({ title: r.event.title, grade: grades[i]! })),
    baselineTop: baselineIds.map((id, i) => ({ title: titleOf.get(id) ?? id, grade: baselineGrades[i]! })),
    missing: [...judged]
      .filter(([id]) => !shownIds.has(id))
      .sort((a, b) => b[1] - a[1])
      .map(([id, grade]) => ({ title: titleOf.get(id) ?? id, grade })),
    relevantCount: judged.size,
    total: result.total,
    listed: listed.length,
    ...(q.constraints
      ? {
          precision: shareMeeting(listed, q.constraints, now),
          baselinePrecision: shareMeeting(
            baselineListed.map((id) => byId.get(id)!),
            q.constraints,
            now,
          ),
        }
      : {}),
    claimsKept: shareMeeting(listed, claims, now),
    broken: brokenClaims(listed, claims, now),
    ...(q.prefer ? { preferenceKept: preferredFirst(listed, q.prefer.language) } : {}),
    fillerListed: fillerListed(describeQuery(result.restatement), q.mustNotMatch ?? []),
    unrelatedCites: first.flatMap((r) =>
      inEnglish(r.reasons)
        .filter((reason) => quoted(reason).some((cited) => !citesRelatedEvidence(cited, q.q)))
        .map((reason) => ({ title: r.event.title, reason })),
    ),
  };
}

/** The listed events breaking a claim, with the claims each breaks (the first five). */
function brokenClaims(listed: CatalogueEvent[], claims: Constraints, now: Date): QueryReport['broken'] {
  return listed
    .map((e) => ({ title: e.title, unmet: unmet(e, claims, now) }))
    .filter((b) => b.unmet.length > 0)
    .slice(0, 5);
}

/** Whether every listed event held in the preferred language comes before every one that is not. */
function preferredFirst(listed: CatalogueEvent[], language: string): boolean {
  const held = listed.map((e) => e.language === language);
  return held.every((h, i) => h || held.slice(i).every((later) => !later));
}

/** Builds the evaluation catalogue, runs every labelled prompt and scores it. */
export async function evaluate(): Promise<EvalReport> {
  const { ctx, all, count, close } = await buildCatalogue();
  try {
    const queries = readQueries();
    const baseline = bm25Baseline(ctx.index, ctx.now());
    const reports = queries.map((q) => evaluateQuery(ctx, all, baseline, q));
    const byLanguage: EvalReport['byLanguage'] = {};
    for (const lang of [...new Set(reports.map((r) => r.lang))])
      byLanguage[lang] = groupScore(reports.filter((r) => r.lang === lang));
    const overall = groupScore(reports);
    const older = groupScore(reports.filter((r) => !r.constrained));
    return {
      queries: reports,
      stats: setStats(queries),
      events: count,
      meanNdcg: overall.ndcg,
      meanBaseline: overall.baseline,
      olderMeanNdcg: older.ndcg,
      olderMeanBaseline: older.baseline,
      overall,
      older,
      constrained: groupScore(reports.filter((r) => r.constrained)),
      promises: Object.fromEntries(
        QUERY_CLASSES.map((c) => [c, promiseScore(reports.filter((r) => r.class === c))]),
      ) as EvalReport['promises'],
      constrainedPromises: promiseScore(reports.filter((r) => r.constrained)),
      byClass: Object.fromEntries(
        QUERY_CLASSES.map((c) => [c, groupScore(reports.filter((r) => r.class === c))]),
      ) as EvalReport['byClass'],
      byLanguage,
      conversational: groupScore(reports.filter((r) => r.conversational)),
      other: groupScore(reports.filter((r) => !r.conversational)),
      bestNextEvent: groupScore(reports.filter((r) => r.tool === 'best_next_event')),
      extractionShare: reports.filter((r) => r.extraction.ok).length / reports.length,
      fillerPrompts: reports.filter((r) => r.fillerListed.length > 0).length,
      olderFillerPrompts: reports.filter((r) => !r.constrained && r.fillerListed.length > 0).length,
      unrelatedCites: reports.reduce((n, r) => n + r.unrelatedCites.length, 0),
    };
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--catalogue')) {
    await printCatalogue();
  } else {
    const report = await evaluate();
    console.log(formatReport(report, CI_GATE));
    process.exitCode = gateFailures(report, CI_GATE).length === 0 ? 0 : 1;
  }
}
