/**
 * The catalogue `npm run eval` judges against: a frozen copy of the confs.tech seed and the fixture events, stored
 * through the same use cases as an import and POST /api/events, with "now" fixed; and the judge's listing of it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { classifyKinds } from '../../src/catalogue/classify-kind.js';
import { type CatalogueEvent, HOST_SOURCE, sourceOwner } from '../../src/catalogue/event.js';
import { resolveSubmission } from '../../src/catalogue/resolve-content.js';
import { eventSubmissionSchema, parseOrThrow } from '../../src/catalogue/submission.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createServingContext, type ServingContext } from '../../src/context.js';
import { confsTechImporter } from '../../src/importers/confs-tech.js';
import { createLogger } from '../../src/observability/logger.js';
import { COUNTRY_INFO } from '../../src/places/countries.js';
import { openStorage } from '../../src/storage/database.js';
import { runImport } from '../../src/use-cases/import-records.js';
import { CURATED_SOURCE } from '../../src/use-cases/seed-catalogue.js';
import { upsertEvent } from '../../src/use-cases/store-events.js';

/** Saturday 1 March 2025, 10:00 in Zürich. */
export const EVAL_NOW = '2025-03-01T09:00:00Z';

/**
 * The confs.tech conferences judged against, frozen: the shipped seed is rebuilt from newer data now and then, and
 * the judgements name these events (see test/fixtures/README.md).
 */
const SEED_COPY = new URL('../../test/fixtures/confs-tech-dach-2025-2027.json', import.meta.url);
const CATALOGUE_FILE = new URL('../../test/fixtures/relevance-catalogue.jsonl', import.meta.url);
/** Owner of the fixture events: stands in for the hosts that would push them with their keys. */
const FIXTURE_OWNER = sourceOwner('relevance-fixture');

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

export interface Catalogue {
  ctx: ServingContext;
  /** Every stored event (past, unlisted and cancelled included), to resolve judgements. */
  all: CatalogueEvent[];
  count: number;
  close(): Promise<void>;
}

/**
 * Stores the evaluation catalogue in a service's empty database (the frozen confs.tech copy, then the fixture events)
 * and loads its read index as at start-up; answers every stored event. For a test server as for `npm run eval`.
 */
export async function loadEvaluationCatalogue(ctx: ServingContext): Promise<{ all: CatalogueEvent[]; count: number }> {
  const seed = await runImport(ctx, confsTechImporter, readFileSync(SEED_COPY, 'utf8'), { source: CURATED_SOURCE });
  if (seed.skipped.length > 0) throw new Error(`seed records skipped: ${JSON.stringify(seed.skipped)}`);
  const fixtureCount = await loadFixture(ctx);
  const all = await ctx.events.listNotEndedSince(new Date(0));
  ctx.index.load(await ctx.events.listNotEndedSince(new Date(ctx.now().getTime() - 86_400_000)));
  return { all, count: seed.created + fixtureCount };
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
    const ctx = createServingContext(config, storage, createLogger('silent'));
    const { all, count } = await loadEvaluationCatalogue(ctx);
    return { ctx, all, count, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `--catalogue`: the events a judge reads (local start, place, format, price, topics, seniority, kinds, language, call
 * for papers, id, title), no engine involved.
 */
export async function printCatalogue(): Promise<void> {
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
      const cfp = e.cfpUntil ? ` · cfp until ${e.cfpUntil}` : e.cfpUrl ? ' · cfp open until it starts' : '';
      console.log(
        `${e.country} ${start} ${e.city ?? '—'} · ${e.format} · ${e.priceType} · ${e.topics.join(',')} · ${e.seniority.join(',') || '-'} · ${[...classifyKinds(e)].join(',') || '-'} · ${e.language ?? '-'}${cfp} · ${e.id} · ${e.title}${over}${hidden}`,
      );
    }
  } finally {
    await close();
  }
}
