import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { isTopic } from '../catalogue/taxonomy.js';
import { COUNTRIES, type Country } from '../places/countries.js';
import { resolveCity } from '../places/gazetteer.js';
import { FeedsFileError } from './input-error.js';
import { FORMATS, importerFor, isUrl } from './registry.js';
import { sourceNameError } from './source-name.js';

/** `{year}` and the names of `each` in a URL template. */
const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;
/** Values put into URLs: path segments, nothing that could change the URL's shape (a Google calendar's id has "@"). */
const VALUE = /^[A-Za-z0-9._~@-]+$/;
/** Enough for confs.tech's ~40 topics over a few years; a typo multiplying lists is caught. */
const MAX_URLS = 500;
const DEFAULT_YEARS = 2;

const placeholdersOf = (template: string) => [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);

const valueSchema = z.string().regex(VALUE, 'must be letters, digits, ".", "_", "~", "@" or "-"');

/** A value of `each` with what its calendar does not say: name, city, country, topics and where it was found. */
const calendarEntrySchema = z
  .strictObject({
    id: valueSchema,
    name: z.string().trim().min(1).max(200).optional(),
    city: z.string().trim().min(1).max(100).optional(),
    country: z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional(),
    topics: z.array(z.string().refine(isTopic, 'must be a topic slug (docs/taxonomy.md)')).optional(),
    found: z.url({ protocol: /^https?$/ }).optional(),
    seen: z.iso.date().optional(),
  })
  .superRefine((entry, ctx) => {
    if (entry.city && !resolveCity(entry.city, entry.country))
      ctx.addIssue({
        code: 'custom',
        path: ['city'],
        message: `is not a known place${entry.country ? ` in ${entry.country}` : ''}`,
      });
  });
export type CalendarEntry = z.output<typeof calendarEntrySchema>;

const feedSchema = z
  .strictObject({
    source: z.string().superRefine((s, ctx) => {
      const error = sourceNameError(s);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
    format: z.string().refine((f) => importerFor(f) !== undefined, `must be one of ${FORMATS.join(', ')}`),
    url: z.union([
      z.string().min(1, 'must be a URL or a file path'),
      z.array(z.string().min(1, 'must be a URL or a file path')).min(1, 'must list at least one URL'),
    ]),
    each: z
      .record(
        z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a lower-case name'),
        z.array(z.union([valueSchema, calendarEntrySchema])).min(1, 'must not be empty'),
      )
      .optional(),
    worldwide: z.boolean().optional(),
    window: z.number().int().min(1).max(1000).optional(),
    years: z.number().int().min(1).max(5).optional(),
    country: z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional(),
    licence: z.string().trim().min(1).max(100).optional(),
    about: z.url({ protocol: /^https?$/ }).optional(),
    seed: z.string().min(1).optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine((feed, ctx) => {
    const templates = Array.isArray(feed.url) ? feed.url : [feed.url];
    const defined = new Set(Object.keys(feed.each ?? {}));
    const used = new Set(templates.flatMap(placeholdersOf));
    if (defined.has('year'))
      ctx.addIssue({ code: 'custom', path: ['each', 'year'], message: '{year} is built in: use "years"' });
    for (const name of used) {
      if (name !== 'year' && !defined.has(name))
        ctx.addIssue({ code: 'custom', path: ['url'], message: `{${name}} is not defined: list its values in "each"` });
    }
    for (const name of defined) {
      if (!used.has(name))
        ctx.addIssue({ code: 'custom', path: ['each', name], message: `is not used: no URL has {${name}}` });
    }
    for (const [name, values] of Object.entries(feed.each ?? {})) {
      const ids = values.map(entryId);
      const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
      if (repeated) ctx.addIssue({ code: 'custom', path: ['each', name], message: `lists "${repeated}" twice` });
    }
    if (feed.years !== undefined && !used.has('year'))
      ctx.addIssue({ code: 'custom', path: ['years'], message: 'no URL has {year}' });
    const count = templates.reduce(
      (n, t) =>
        n +
        placeholdersOf(t).reduce(
          (m, p) => m * (p === 'year' ? (feed.years ?? DEFAULT_YEARS) : (feed.each?.[p]?.length ?? 1)),
          1,
        ),
      0,
    );
    if (count > MAX_URLS)
      ctx.addIssue({ code: 'custom', path: ['url'], message: `expands to ${count} URLs, more than ${MAX_URLS}` });
  });
const feedsSchema = z.array(feedSchema);

/**
 * One feed: a source, its format and where to read it. `url` may be a list of templates with `{year}` and `{name}`
 * (each `each.name`): one feed then reads several files as one source.
 */
export type Feed = z.output<typeof feedSchema>;

export interface LoadFeedsOptions {
  /** A missing file means no feeds rather than an error (the shipped file, when an install left it out). */
  optional?: boolean;
  /** Check that each seed file exists (default); the seed builder, which writes them, does not. */
  checkSeeds?: boolean;
}

/** Reads and validates a feeds file; relative file paths in it (URLs and seeds) are relative to the file. */
export async function loadFeeds(path: string, options: LoadFeedsOptions = {}): Promise<Feed[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.optional) return [];
    throw new FeedsFileError(
      code === 'ENOENT' ? `feeds file ${path} not found` : `feeds file ${path}: ${(error as Error).message}`,
    );
  }
  const parsed = feedsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`,
    );
    throw new FeedsFileError(`feeds file ${path} is invalid: ${issues.join('; ')}`);
  }
  const names = parsed.data.map((f) => f.source);
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  // Two feeds of one source would each cancel the other's events as missing.
  if (repeated) throw new FeedsFileError(`feeds file ${path}: source "${repeated}" appears twice`);
  const base = dirname(resolve(path));
  const local = (p: string) => (isUrl(p) || isAbsolute(p) ? p : resolve(base, p));
  return parsed.data.map((f) => {
    const feed: Feed = { ...f, url: Array.isArray(f.url) ? f.url.map(local) : local(f.url) };
    if (f.seed !== undefined) {
      feed.seed = local(f.seed);
      if (options.checkSeeds !== false && !existsSync(feed.seed))
        throw new FeedsFileError(`feeds file ${path}: seed ${feed.seed} of "${f.source}" not found`);
    }
    return feed;
  });
}

/** A disabled feed (`"enabled": false`) is listed among the sources but neither synced nor seeded. */
export const isEnabled = (feed: Feed) => feed.enabled !== false;

const entryId = (value: string | CalendarEntry) => (typeof value === 'string' ? value : value.id);

/** One URL (or path) a feed reads, and which of the feed's calendars it is. */
export interface FeedPart {
  url: string;
  /** The calendar's id in its feed: its `each` values joined by "/", the URL in a plain list, empty for one URL. */
  key: string;
  /** What the feeds file says of the calendar, where `each` gives it as an object. */
  entry?: CalendarEntry;
}

/** The parts a feed reads at `now`: its templates with every placeholder filled in, each URL once. */
export function feedParts(feed: Feed, now: Date): FeedPart[] {
  const thisYear = now.getUTCFullYear();
  const years = Array.from({ length: feed.years ?? DEFAULT_YEARS }, (_, i) => String(thisYear + i));
  const templates = Array.isArray(feed.url) ? feed.url : [feed.url];
  const expand = (template: string, keys: string[], entry: CalendarEntry | undefined): FeedPart[] => {
    const match = PLACEHOLDER.exec(template);
    PLACEHOLDER.lastIndex = 0;
    if (!match) return [{ url: template, key: keys.join('/'), ...(entry ? { entry } : {}) }];
    const name = match[1]!;
    if (name === 'year') return years.flatMap((year) => expand(template.replaceAll(match[0], year), keys, entry));
    return (feed.each?.[name] ?? []).flatMap((value) =>
      expand(
        template.replaceAll(match[0], entryId(value)),
        [...keys, entryId(value)],
        typeof value === 'string' ? entry : value,
      ),
    );
  };
  const parts = new Map<string, FeedPart>();
  for (const template of templates) {
    for (const part of expand(template, [], undefined)) {
      if (!part.key && templates.length > 1) part.key = part.url;
      if (!parts.has(part.url)) parts.set(part.url, part);
    }
  }
  return [...parts.values()];
}

/** The URLs (or paths) a feed reads at `now`. */
export const feedUrls = (feed: Feed, now: Date): string[] => feedParts(feed, now).map((p) => p.url);

/** The country a calendar's events are in when they do not say: its entry's, else the feed's. */
export const partCountry = (feed: Feed, part: FeedPart): Country | undefined => part.entry?.country ?? feed.country;
