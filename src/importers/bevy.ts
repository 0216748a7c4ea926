import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { shortDescription } from './enrich.js';
import { htmlText } from './html-text.js';
import {
  FILE_RECORD,
  type ImportedRecord,
  type Importer,
  type ParseOptions,
  type RecordError,
  recordsOfRows,
  rowLabel,
} from './importer.js';

const TITLE_MAX = 300;
const text = z
  .string()
  .nullish()
  .transform((s) => s?.trim() || undefined);

/**
 * One event as the platform's API serves it (see test/fixtures/bevy/README.md): the chapter's events list
 * (`event_slim/for_chapter`, `event/?chapter=`, `chapter/<id>/event`) and one event in full share these fields; a list
 * leaves out what it does not carry (the venue, the chapter's place).
 */
const bevyEvent = z.looseObject({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
  title: z.string().trim().min(1),
  start_date: z.string().min(1),
  end_date: text,
  event_timezone: text,
  audience_type: text,
  status: text,
  is_hidden: z.boolean().nullish(),
  url: text,
  relative_url: text,
  static_url: text,
  description: text,
  description_short: text,
  venue_name: text,
  venue_address: text,
  venue_city: text,
  venue_zip_code: text,
  tags: z.array(z.unknown()).nullish(),
  chapter_title: text,
  chapter: z.looseObject({ title: text, city: text, country: text, timezone: text }).nullish(),
});
type BevyEvent = z.output<typeof bevyEvent>;

const FORMATS = { IN_PERSON: 'in_person', VIRTUAL: 'online', HYBRID: 'hybrid' } as const;

/** The events of a response: a list's `results`, a bare array, or one event in full. */
function rowsOf(input: string): { rows: unknown[] } | { error: RecordError } {
  let body: unknown;
  try {
    body = JSON.parse(input);
  } catch (error) {
    return { error: { record: FILE_RECORD, message: `not valid JSON: ${(error as Error).message}` } };
  }
  if (Array.isArray(body)) return { rows: body };
  if (body && typeof body === 'object') {
    const results = (body as { results?: unknown }).results;
    if (Array.isArray(results)) return { rows: results };
    if ('start_date' in body && 'title' in body) return { rows: [body] };
  }
  return { error: { record: FILE_RECORD, message: 'not a Bevy events list (no "results" of events)' } };
}

/** An instant of the API: with its offset or `Z`; a time without one is the event's zone's local time. */
function instantOf(value: string, zone: string | undefined): Date | undefined {
  const hasOffset = /(?:Z|[+-]\d\d:?\d\d)$/i.test(value);
  const time = DateTime.fromISO(value, hasOffset || !zone ? { setZone: true } : { zone });
  return time.isValid && (hasOffset || zone) ? time.toJSDate() : undefined;
}

const isHttp = (s: string | undefined): s is string => !!s && /^https?:\/\/[^\s/]+/i.test(s);

/** The event's page: its `url`, else its relative address on the platform's host, else its short link. */
function pageOf(e: BevyEvent, inputName: string | undefined): string | undefined {
  if (isHttp(e.url)) return e.url;
  const base = isHttp(e.static_url) ? e.static_url : isHttp(inputName) ? inputName : undefined;
  if (e.relative_url?.startsWith('/') && base) return new URL(e.relative_url, base).toString();
  return isHttp(e.static_url) ? e.static_url : undefined;
}

/** The venue as one line, each part once: "QBIG BSD City, Jalan BSD Raya Utama, 15331 Kabupaten Tangerang". */
function venueOf(e: BevyEvent): string | undefined {
  const town = [e.venue_zip_code, e.venue_city].filter(Boolean).join(' ');
  const parts = [e.venue_name, e.venue_address, town].filter((p): p is string => !!p);
  return [...new Set(parts)].join(', ') || undefined;
}

function recordOf(e: BevyEvent, options: ParseOptions): ImportedRecord | string {
  const zone = e.event_timezone ?? e.chapter?.timezone ?? undefined;
  const start = instantOf(e.start_date, zone);
  if (!start) return `start_date "${e.start_date}" is not a date and time`;
  const end = e.end_date ? instantOf(e.end_date, zone) : undefined;
  const format = FORMATS[(e.audience_type ?? '').toUpperCase() as keyof typeof FORMATS];
  const online = format === 'online';
  const venue = online ? undefined : venueOf(e);
  const description = e.description ? htmlText(e.description) : e.description_short;
  return {
    sourceId: String(e.id),
    title: e.title.slice(0, TITLE_MAX),
    description: shortDescription(description) ?? undefined,
    start: { instant: start },
    end: end && end >= start ? { instant: end } : undefined,
    city: online ? undefined : (e.venue_city ?? e.chapter?.city ?? undefined),
    country: online ? undefined : (e.chapter?.country ?? undefined),
    venue,
    format,
    // A venue or the chapter's city is the event's own word; a list without either leaves the calendar's city.
    placeFrom: venue || e.chapter?.city || online ? 'event' : 'calendar',
    topicHints: (e.tags ?? []).filter((t): t is string => typeof t === 'string'),
    organizer: e.chapter?.title ?? e.chapter_title ?? undefined,
    url: pageOf(e, options.inputName),
    cancelled: /^cancel+ed$/i.test(e.status ?? '') || undefined,
  };
}

/** Shown on the platform: not hidden, not a draft. */
const listed = (e: BevyEvent) => e.is_hidden !== true && !/^draft$/i.test(e.status ?? '');

/**
 * Bevy, the chapter platform of Google Developer Groups (gdg.community.dev) and CNCF community groups
 * (community.cncf.io): a chapter's public events list, JSON, as its API serves it. Each URL is one chapter. Where a
 * host's robots.txt keeps automated readers out of /api/ (gdg.community.dev's does), it is not to be read this way:
 * see docs/sources.md, "Bevy chapters".
 */
export const bevyImporter: Importer = {
  format: 'bevy',
  calendar: true,
  what: 'a Bevy events list',
  description: 'Bevy chapter events (GDG, CNCF): the JSON list of /api/event/?chapter=<id> or event_slim/for_chapter',
  parse(input, options) {
    const seen = new Set<string>();
    const labelOf = (row: unknown, index: number) =>
      rowLabel({ name: (row as { title?: unknown } | null)?.title }, index);
    const each = (e: BevyEvent) => {
      if (!listed(e) || seen.has(String(e.id))) return undefined;
      seen.add(String(e.id));
      return recordOf(e, options);
    };
    return recordsOfRows(rowsOf(input), bevyEvent, each, labelOf);
  },
  digest(input) {
    return createHash('sha256').update(input).digest('base64url');
  },
};
