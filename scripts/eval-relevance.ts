/**
 * `npm run eval`: measures the query engine against a labelled relevance set (issue 4, "Measured, not assumed").
 *
 * Builds a catalogue in a temporary embedded database — the shipped confs.tech seed plus the fixture events of
 * test/fixtures/relevance-catalogue.jsonl, written through the same use case as POST /api/events — with "now" fixed
 * at Saturday 1 March 2025, 10:00 in Zürich. Runs every query of test/fixtures/relevance-queries.json through
 * `parseSearchParams` + `search` (the engine behind every output) and reports, per query and overall:
 * - nDCG@10 over the graded judgements (gain 2^grade − 1, log2 discount; a query judged to have no relevant event
 *   scores 1 when the engine returns nothing and 0 otherwise);
 * - whether the engine's understanding extracted exactly the expected city, topics and date window (a facet the
 *   query does not expect must not be extracted either).
 * Exits 1 when mean nDCG@10 < 0.9 or the extraction share < 0.9.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DateTime } from 'luxon';
import { COUNTRY_INFO } from '../src/catalogue/countries.js';
import { type CatalogueEvent, HOST_SOURCE, sourceOwner } from '../src/catalogue/event.js';
import { resolveSubmission } from '../src/catalogue/resolve-content.js';
import { eventSubmissionSchema, parseOrThrow } from '../src/catalogue/submission.js';
import { upsertEvent } from '../src/catalogue/upsert-event.js';
import { loadConfig } from '../src/config.js';
import { type AppContext, createContext } from '../src/context.js';
import { confsTechImporter } from '../src/importers/confs-tech.js';
import { runImport } from '../src/importers/run-import.js';
import { CURATED_SOURCE, SEED_FILE } from '../src/importers/seed.js';
import { createLogger } from '../src/logger.js';
import { resolveCity } from '../src/places/gazetteer.js';
import { type SearchResult, search } from '../src/query/engine.js';
import { parseSearchParams } from '../src/query/params.js';
import { openStorage } from '../src/storage/database.js';

/** Saturday 1 March 2025, 10:00 in Zürich. */
export const EVAL_NOW = '2025-03-01T09:00:00Z';
export const NDCG_THRESHOLD = 0.9;
export const EXTRACTION_THRESHOLD = 0.9;
const K = 10;

const CATALOGUE_FILE = new URL('../test/fixtures/relevance-catalogue.jsonl', import.meta.url);
const QUERIES_FILE = new URL('../test/fixtures/relevance-queries.json', import.meta.url);
/** Owner of the fixture events: stands in for the hosts that would push them with their keys. */
const FIXTURE_OWNER = sourceOwner('relevance-fixture');

export interface LabelledQuery {
  q: string;
  /** Language of `q` (en, de, fr, it), for the report. */
  lang: string;
  /** Other query parameters, as strings, exactly as in a URL (country, city, format, who, …). */
  params?: Record<string, string>;
  /** Judged events (title, or id where titles repeat): 2 = exactly what was asked, 1 = acceptable. */
  relevant: Record<string, 1 | 2>;
  expect?: { city?: string; topics?: string[]; window?: { from: string; to: string } };
  note?: string;
}

export interface Extraction {
  ok: boolean;
  city: { expected: string | null; actual: string | null; ok: boolean };
  topics: { expected: string[]; actual: string[]; ok: boolean };
  window: { expected: string | null; actual: string | null; ok: boolean };
}

export interface QueryReport {
  q: string;
  lang: string;
  params: Record<string, string>;
  ndcg: number;
  extraction: Extraction;
  understood: string;
  /** Titles of the first results (with the grade they were judged, 0 when unjudged). */
  top: { title: string; grade: number }[];
  relevantCount: number;
  total: number;
}

export interface EvalReport {
  queries: QueryReport[];
  meanNdcg: number;
  extractionShare: number;
  languages: Record<string, number>;
  events: number;
  passed: boolean;
}

export function readQueries(): LabelledQuery[] {
  return JSON.parse(readFileSync(QUERIES_FILE, 'utf8')) as LabelledQuery[];
}

/** Loads the fixture lines through the write API's use case: validate, resolve, upsert (idempotent on externalId). */
async function loadFixture(ctx: AppContext): Promise<number> {
  const lines = readFileSync(CATALOGUE_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  for (const [i, line] of lines.entries()) {
    let submission: ReturnType<typeof eventSubmissionSchema.parse>;
    try {
      submission = parseOrThrow(eventSubmissionSchema, JSON.parse(line));
    } catch (error) {
      throw new Error(`relevance-catalogue.jsonl line ${i + 1}: ${(error as Error).message}`, { cause: error });
    }
    const content = resolveSubmission(submission, { country: 'ch', organizer: 'Relevance fixture' });
    await upsertEvent(
      ctx.events,
      { owner: FIXTURE_OWNER, externalId: submission.externalId ?? null, source: HOST_SOURCE, actor: 'eval' },
      content,
      submission,
    );
  }
  return lines.length;
}

/** Discounted cumulative gain of the first K grades. */
function dcg(grades: number[]): number {
  return grades.slice(0, K).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

export function ndcgAtK(returned: number[], judged: number[]): number {
  if (judged.length === 0) return returned.length === 0 ? 1 : 0;
  const ideal = dcg([...judged].sort((a, b) => b - a));
  return dcg(returned) / ideal;
}

/** Maps each judged key (id, else an unambiguous title) to an event id; throws on unknown or ambiguous keys. */
function resolveJudgements(q: LabelledQuery, all: CatalogueEvent[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, grade] of Object.entries(q.relevant)) {
    const byId = all.find((e) => e.id === key);
    const byTitle = all.filter((e) => e.title === key);
    if (!byId && byTitle.length !== 1) {
      throw new Error(
        `query "${q.q}": judged event "${key}" ${byTitle.length === 0 ? 'does not exist' : `is ambiguous (${byTitle.map((e) => e.id).join(', ')}); use the id`}`,
      );
    }
    out.set(byId ? byId.id : byTitle[0]!.id, grade);
  }
  return out;
}

function localDate(date: Date, zone: string): string {
  return DateTime.fromJSDate(date, { zone }).toISODate()!;
}

function checkExtraction(q: LabelledQuery, result: SearchResult): Extraction {
  const expect = q.expect ?? {};
  const u = result.understanding;
  const zone = COUNTRY_INFO[result.country].timeZone;

  const actualPlace = u.place?.place ?? result.params.city;
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

interface Catalogue {
  ctx: AppContext;
  /** Every stored event (past, unlisted and cancelled included), to resolve judgements. */
  all: CatalogueEvent[];
  count: number;
  close(): Promise<void>;
}

/** The evaluation catalogue in a fresh temporary database, with the read index loaded as at start-up. */
export async function buildCatalogue(): Promise<Catalogue> {
  const dir = mkdtempSync(join(tmpdir(), 'tev-eval-'));
  const config = loadConfig({ DATA_DIR: dir, TECH_EVENTS_NOW: EVAL_NOW, LOG_LEVEL: 'silent', SEED: '0' });
  const storage = await openStorage({ dataDir: config.dataDir });
  const close = async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ctx = createContext(config, storage, createLogger('silent'));
    const seed = await runImport(ctx, confsTechImporter, readFileSync(SEED_FILE, 'utf8'), { source: CURATED_SOURCE });
    if (seed.skipped.length > 0) throw new Error(`seed records skipped: ${JSON.stringify(seed.skipped)}`);
    const fixtureCount = await loadFixture(ctx);
    const all = await ctx.events.listNotEndedSince(new Date(0));
    ctx.index.load(await ctx.events.listNotEndedSince(new Date(ctx.now().getTime() - 86_400_000)));
    return { ctx, all, count: seed.created + fixtureCount, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Builds the evaluation catalogue, runs every labelled query and scores it. */
export async function evaluate(): Promise<EvalReport> {
  const { ctx, all, count, close } = await buildCatalogue();
  try {
    const queries = readQueries();
    const reports: QueryReport[] = [];
    const languages: Record<string, number> = {};
    for (const q of queries) {
      languages[q.lang] = (languages[q.lang] ?? 0) + 1;
      const judged = resolveJudgements(q, all);
      const params = parseSearchParams({ ...(q.params ?? {}), q: q.q });
      const result = search(ctx.index, params, ctx.now());
      const grades = result.events.slice(0, K).map((r) => judged.get(r.entry.event.id) ?? 0);
      reports.push({
        q: q.q,
        lang: q.lang,
        params: q.params ?? {},
        ndcg: ndcgAtK(grades, [...judged.values()]),
        extraction: checkExtraction(q, result),
        understood: result.understood,
        top: result.events.slice(0, K).map((r, i) => ({ title: r.entry.event.title, grade: grades[i]! })),
        relevantCount: judged.size,
        total: result.total,
      });
    }
    const meanNdcg = reports.reduce((s, r) => s + r.ndcg, 0) / reports.length;
    const extractionShare = reports.filter((r) => r.extraction.ok).length / reports.length;
    return {
      queries: reports,
      meanNdcg,
      extractionShare,
      languages,
      events: count,
      passed: meanNdcg >= NDCG_THRESHOLD && extractionShare >= EXTRACTION_THRESHOLD,
    };
  } finally {
    await close();
  }
}

/** `--catalogue`: the events a judge reads (id, local start, place, format, price, topics, title), no engine involved. */
async function printCatalogue(): Promise<void> {
  const { all, close } = await buildCatalogue();
  try {
    const now = new Date(EVAL_NOW).getTime();
    for (const e of [...all].sort(
      (a, b) => a.country.localeCompare(b.country) || a.start.getTime() - b.start.getTime(),
    )) {
      const over = (e.end ?? e.start).getTime() <= now ? ' (over)' : '';
      const hidden = e.visibility === 'unlisted' ? ' (unlisted)' : '';
      const start = DateTime.fromJSDate(e.start, { zone: COUNTRY_INFO[e.country].timeZone }).toFormat(
        'ccc yyyy-MM-dd HH:mm',
      );
      console.log(
        `${e.country} ${start} ${e.city ?? '—'} · ${e.format} · ${e.priceType} · ${e.topics.join(',')} · ${e.seniority.join(',') || '-'} · ${e.id} · ${e.title}${over}${hidden}`,
      );
    }
  } finally {
    await close();
  }
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
  return wrong.length ? `extraction ✗ (${wrong.join('; ')})` : 'extraction ✓';
}

export function formatReport(report: EvalReport): string {
  const lines: string[] = [];
  for (const r of report.queries) {
    lines.push(
      `${r.ndcg.toFixed(2)}  [${r.lang}] “${r.q}”${describeParams(r.params)}  — ${extractionNote(r.extraction)}`,
    );
    lines.push(`      understood: ${r.understood}`);
    const top = r.top.slice(0, 3).map((t, i) => `${i + 1}. ${t.title} (${t.grade})`);
    lines.push(
      `      top: ${top.length ? top.join(' · ') : '(nothing)'}  — ${r.total} matches, ${r.relevantCount} judged relevant`,
    );
  }
  const langs = Object.entries(report.languages)
    .map(([l, n]) => `${l} ${n}`)
    .join(', ');
  lines.push('');
  lines.push(`${report.queries.length} queries (${langs}) over ${report.events} events`);
  lines.push(`mean nDCG@${K}: ${report.meanNdcg.toFixed(3)} (threshold ${NDCG_THRESHOLD})`);
  lines.push(
    `extraction right: ${(report.extractionShare * 100).toFixed(1)} % (${report.queries.filter((r) => r.extraction.ok).length}/${report.queries.length}, threshold ${EXTRACTION_THRESHOLD * 100} %)`,
  );
  const worst = [...report.queries].sort((a, b) => a.ndcg - b.ndcg).slice(0, 5);
  lines.push(`worst: ${worst.map((r) => `“${r.q}” ${r.ndcg.toFixed(2)}`).join(', ')}`);
  lines.push(report.passed ? 'PASS' : 'FAIL');
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--catalogue')) {
    await printCatalogue();
  } else {
    const report = await evaluate();
    console.log(formatReport(report));
    process.exitCode = report.passed ? 0 : 1;
  }
}
