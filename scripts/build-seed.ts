/**
 * Rebuilds the shipped snapshots (seed/<source>/) from the newest data of the shipped feeds: confs.tech and
 * devopsdays, filtered to Switzerland, Germany and Austria, merged, normalised, every row with the `sourceUrl` of
 * the file it was read from.
 *
 *   npm run seed -- --confs-tech <checkout or URL base> [--confs-tech-commit <sha>] [--confs-tech-date YYYY-MM-DD]
 *                   [--confs-tech-commits <file.json>]
 *                   --devopsdays <checkout or URL base> [--devopsdays-commit <sha>] [--devopsdays-date YYYY-MM-DD]
 *                   [--devopsdays-commits <file.json>] [--years 2025-2027] [--now <ISO time>]
 *
 * A checkout is a local copy of the repository (only the files the feed reads are needed); a URL base replaces the
 * feed's `https://raw.githubusercontent.com/<owner>/<repo>/HEAD` (pass that very address to read the live data).
 * When the files come from different commits, `--<source>-commits` names them: a JSON object from a file's path in
 * the repository (`conferences/2027/data.json`) to its commit; the other files are of `--<source>-commit`.
 * A source left out keeps its current snapshot. Only derived event fields are written: never devopsdays'
 * organiser lists with their bios, never anything of a source that is not permissively licensed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DateTime } from 'luxon';
import { parse as parseYaml } from 'yaml';
import { loadConfig, SHIPPED_FEEDS_FILE } from '../src/config.js';
import { confsTechImporter, topicOfPath } from '../src/importers/confs-tech.js';
import { DEVOPSDAYS_FIELDS, devopsdaysImporter } from '../src/importers/devopsdays.js';
import { countryFromName, enrichRecord, isElsewhere } from '../src/importers/enrich.js';
import { type Feed, feedUrls, loadFeeds } from '../src/importers/feeds.js';
import type { Importer } from '../src/importers/importer.js';
import { InputError, isUrl, readInput } from '../src/importers/registry.js';
import { resolveCity } from '../src/places/gazetteer.js';
import type { SnapshotInfo } from '../src/use-cases/seed-catalogue.js';

const ROOT = dirname(SHIPPED_FEEDS_FILE);
const RAW_BASE = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/HEAD\//;

type Row = Record<string, unknown>;

interface Built {
  rows: Row[];
  read: number;
  missing: number;
}

/** Reads one file of a feed from the checkout (or URL base); undefined when it does not exist there. */
async function readFrom(base: string, url: string): Promise<string | undefined> {
  const where = url.replace(RAW_BASE, `${base.replace(/\/+$/, '')}/`);
  try {
    return await readInput(where);
  } catch (error) {
    if (error instanceof InputError && error.notFound) return undefined;
    throw error;
  }
}

/** Which commit each file was read from: the file's own when named, else the one of the whole checkout. */
interface Commits {
  all?: string;
  byPath: Record<string, string>;
}

/** The public address a row was read from: at its file's commit, else at the repository's HEAD. */
function publicUrl(url: string, commits: Commits): string {
  const commit = commits.byPath[url.replace(RAW_BASE, '')] ?? commits.all;
  return commit ? url.replace('/HEAD/', `/${commit}/`) : url;
}

function readCommits(file: string | undefined, all: string | undefined): Commits {
  if (!file) return { all, byPath: {} };
  const byPath = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const valid =
    byPath && typeof byPath === 'object' && Object.values(byPath).every((c) => /^[0-9a-f]{40}$/.test(String(c)));
  if (!valid) throw new Error(`${file}: expected {"<path>": "<40-hex commit>", …}`);
  return { all, byPath: byPath as Record<string, string> };
}

/** confs.tech: rows located in ch/de/at, one per name + start date, with the topics of every file listing it. */
async function buildConfsTech(urls: string[], base: string, commits: Commits): Promise<Built> {
  const merged = new Map<string, Row & { confsTechTopics: string[] }>();
  const { files, missing } = await readAll(urls, base);
  for (const { url, text } of files) {
    const topic = topicOfPath(url)!;
    for (const row of JSON.parse(text) as Row[]) {
      if (typeof row.country !== 'string' || !countryFromName(row.country)) continue;
      const key = `${row.name}@${row.startDate}`;
      const seen = merged.get(key);
      if (seen) {
        if (!seen.confsTechTopics.includes(topic)) seen.confsTechTopics.push(topic);
        continue;
      }
      merged.set(key, { ...row, confsTechTopics: [topic], sourceUrl: publicUrl(url, commits) });
    }
  }
  // By start; a stable sort keeps the files' order (year, topic, position) among same-day conferences, so ids given
  // in that order (a second "JCON EUROPE" becomes jcon-europe-2) stay what they were.
  const rows = [...merged.values()].sort((a, b) => String(a.startDate).localeCompare(String(b.startDate)));
  // The merged row's fields in the data set's order, then ours.
  return {
    rows: rows.map(({ confsTechTopics, sourceUrl, ...published }) => ({ ...published, confsTechTopics, sourceUrl })),
    read: files.length,
    missing,
  };
}

/** Every file of a feed that exists in the checkout, with how many of its URLs do not. */
async function readAll(
  urls: string[],
  base: string,
): Promise<{ files: { url: string; text: string }[]; missing: number }> {
  const files: { url: string; text: string }[] = [];
  for (const url of urls) {
    const text = await readFrom(base, url);
    if (text !== undefined) files.push({ url, text });
  }
  return { files, missing: urls.length - files.length };
}

/** devopsdays: the event fields of each main.yml whose city is in ch/de/at (no organisers, no sponsors). */
async function buildDevopsdays(urls: string[], base: string, commits: Commits): Promise<Built> {
  const rows: Row[] = [];
  const { files, missing } = await readAll(urls, base);
  for (const { url, text } of files) {
    const doc = parseYaml(text, { uniqueKeys: false }) as Row;
    const row: Row = {};
    for (const field of DEVOPSDAYS_FIELDS) {
      const value = doc[field];
      if (value !== null && value !== undefined && String(value).trim() !== '') row[field] = String(value).trim();
    }
    const city = (row.city as string | undefined) ?? String(row.name ?? '').slice(5);
    if (!row.startdate || !resolveCity(city)) continue;
    rows.push({ ...row, sourceUrl: publicUrl(url, commits) });
  }
  rows.sort((a, b) => String(a.startdate).localeCompare(String(b.startdate)));
  return { rows, read: files.length, missing };
}

const BUILDERS: Record<string, { importer: Importer; build: typeof buildConfsTech }> = {
  'confs-tech': { importer: confsTechImporter, build: buildConfsTech },
  devopsdays: { importer: devopsdaysImporter, build: buildDevopsdays },
};

/** Every row must load: the seed is parsed and enriched exactly as the service will. Returns upcoming per country. */
function check(feed: Feed, text: string, now: Date): Record<string, number> {
  const importer = BUILDERS[feed.source]!.importer;
  const parsed = importer.parse(text, { now, inputName: feed.seed });
  if (parsed.errors.length > 0) throw new Error(`${feed.source}: ${JSON.stringify(parsed.errors)}`);
  const upcoming: Record<string, number> = { ch: 0, de: 0, at: 0 };
  for (const record of parsed.records) {
    if (isElsewhere(record)) throw new Error(`${feed.source}: "${record.title}" is not in ch/de/at`);
    const content = enrichRecord(record, feed.country);
    if ((content.end ?? content.start) > now) upcoming[content.country]!++;
  }
  return upcoming;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'confs-tech': { type: 'string' },
      'confs-tech-commit': { type: 'string' },
      'confs-tech-date': { type: 'string' },
      'confs-tech-commits': { type: 'string' },
      devopsdays: { type: 'string' },
      'devopsdays-commit': { type: 'string' },
      'devopsdays-date': { type: 'string' },
      'devopsdays-commits': { type: 'string' },
      years: { type: 'string', default: '2025-2027' },
      now: { type: 'string' },
    },
  });
  const years = values.years.match(/^(\d{4})-(\d{4})$/);
  if (!years || Number(years[2]) < Number(years[1])) throw new Error('--years must be like 2025-2027');
  const [first, last] = [Number(years[1]), Number(years[2])];
  const now = values.now ? new Date(values.now) : new Date();
  const today = DateTime.fromJSDate(now).toISODate()!;
  const feeds = await loadFeeds(loadConfig().feedsFile.path, { checkSeeds: false });
  const opts = values as Record<string, string | undefined>;
  let built = 0;
  for (const feed of feeds) {
    const base = opts[feed.source];
    if (!base || !feed.seed || !BUILDERS[feed.source]) continue;
    if (!isUrl(base) && !existsSync(base)) throw new Error(`--${feed.source}: ${base} not found`);
    // The feed's own URLs, over the seed's years instead of the current ones.
    const urls = feedUrls({ ...feed, years: last - first + 1 }, new Date(Date.UTC(first, 6, 1)));
    const commit = opts[`${feed.source}-commit`];
    const commits = readCommits(opts[`${feed.source}-commits`], commit);
    const paths = new Set(urls.map((u) => u.replace(RAW_BASE, '')));
    const unknown = Object.keys(commits.byPath).filter((p) => !paths.has(p));
    if (unknown.length > 0) throw new Error(`--${feed.source}-commits: not a file of the feed: ${unknown.join(', ')}`);
    const result = await BUILDERS[feed.source]!.build(urls, base, commits);
    const text = `${JSON.stringify(result.rows, null, 1)}\n`;
    const upcoming = check(feed, text, now);
    mkdirSync(dirname(feed.seed), { recursive: true });
    writeFileSync(feed.seed, text);
    const repository = (Array.isArray(feed.url) ? feed.url[0]! : feed.url).match(RAW_BASE)?.[1];
    const snapshot: SnapshotInfo & Record<string, unknown> = {
      source: feed.source,
      of: opts[`${feed.source}-date`] ?? today,
      repository: repository && `https://github.com/${repository}`,
      ...(commit ? { commit } : {}),
      // The files read at another commit than `commit`, each with its own.
      ...(Object.keys(commits.byPath).length > 0 ? { commits: commits.byPath } : {}),
      licence: feed.licence,
      years: `${first}-${last}`,
      rows: result.rows.length,
      files: { read: result.read, missing: result.missing },
    };
    writeFileSync(join(dirname(feed.seed), 'snapshot.json'), `${JSON.stringify(snapshot, null, 2)}\n`);
    console.log(
      `${feed.source}: ${result.rows.length} events in ch/de/at from ${result.read} files (${result.missing} absent) → ` +
        `${relative(ROOT, feed.seed)}; not over on ${today}: ${JSON.stringify(upcoming)}`,
    );
    built++;
  }
  if (built === 0) console.log('Nothing built: name a checkout or URL base, e.g. --confs-tech <path>.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
