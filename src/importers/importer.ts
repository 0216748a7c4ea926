import type { z } from 'zod';
import type { EventFormat, PlainContent, PriceType, RegMode, Visibility } from '../catalogue/event.js';
import type { Country } from '../places/countries.js';

/** One record of a source in source-neutral terms, before enrichment: importers only parse (see enrich.ts). */
export interface ImportedRecord extends Partial<PlainContent> {
  /** Stable id within the source (a re-import with the same id updates instead of duplicating). */
  sourceId: string;
  title: string;
  description?: string | undefined;
  /** Timed events: instants. All-day events: local dates (YYYY-MM-DD, end inclusive). */
  start: { instant: Date } | { date: string };
  end?: { instant: Date } | { date: string } | undefined;
  city?: string | undefined;
  /** Country as the source names it (code or English/German name); resolved by enrichment. */
  country?: string | undefined;
  venue?: string | undefined;
  format?: EventFormat | undefined;
  /** A calendar event's place: read from the event itself, from its description, or not said (its calendar's). */
  placeFrom?: 'event' | 'description' | 'calendar' | undefined;
  /** Source topic names (e.g. confs.tech's `javascript`), mapped through the lexicon. */
  topicHints?: string[] | undefined;
  /** Topic slugs of our taxonomy, when the source already speaks it. */
  topics?: string[] | undefined;
  seniority?: string[] | undefined;
  organizer?: string | undefined;
  url?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
  price?: PriceType | undefined;
  priceAmount?: number | undefined;
  regMode?: RegMode | undefined;
  capacity?: number | undefined;
  cancelled?: boolean | undefined;
  /** Default public; the JSON lines format carries the submission's own. */
  visibility?: Visibility | undefined;
  /** The call for papers, when the source has one: its link and its deadline (ISO date or date-time). */
  cfpUrl?: string | undefined;
  cfpUntil?: string | undefined;
}

/** An event's language (PLAIN_FIELDS.language): an event in any other, or in several, has none. */
type Language = NonNullable<PlainContent['language']>;

const LANGUAGE_NAMES: Readonly<Record<string, Language>> = {
  en: 'en',
  english: 'en',
  de: 'de',
  german: 'de',
  deutsch: 'de',
  fr: 'fr',
  french: 'fr',
  français: 'fr',
  it: 'it',
  italian: 'it',
  italiano: 'it',
};

/** An event's language when its source lists exactly one ("EN", ["german"]); a bilingual event is in neither. */
export function languageOf(names: string | readonly string[] | undefined): Language | undefined {
  const list = typeof names === 'string' ? names.split(/[,;/]/) : (names ?? []);
  const distinct = new Set(list.map((n) => n.trim().toLowerCase()).filter(Boolean));
  if (distinct.size !== 1) return undefined;
  const [only] = distinct;
  return Object.hasOwn(LANGUAGE_NAMES, only!) ? LANGUAGE_NAMES[only!] : undefined;
}

/** The `record` of an error about the input as a whole (not JSON, not a calendar…): nothing of it is usable. */
export const FILE_RECORD = '(file)';

/** The rows of an input that must be a JSON array, or the error about the input as a whole. */
export function jsonArrayRows(input: string): { rows: unknown[] } | { error: RecordError } {
  let rows: unknown;
  try {
    rows = JSON.parse(input);
  } catch (error) {
    return { error: { record: FILE_RECORD, message: `not valid JSON: ${(error as Error).message}` } };
  }
  return Array.isArray(rows) ? { rows } : { error: { record: FILE_RECORD, message: 'expected a JSON array' } };
}

/** How a row of a JSON array is named in errors: its position, and its `name` when it has one. */
export function rowLabel(row: unknown, index: number): string {
  const name = (row as { name?: unknown } | null)?.name;
  return `#${index + 1}${typeof name === 'string' ? ` "${name}"` : ''}`;
}

/** A zod error as one line: each issue's path and message. */
export function issuesText(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
}

/**
 * The records of an input's rows, each parsed by `schema` and made a record by `recordOf` (a string: why the row is
 * refused; undefined: left out); a row the schema refuses is refused with its issues.
 */
export function recordsOfRows<T>(
  input: { rows: unknown[] } | { error: RecordError },
  schema: z.ZodType<T>,
  recordOf: (row: T) => ImportedRecord | string | undefined,
  labelOf: (row: unknown, index: number) => string = rowLabel,
): ParseResult {
  if ('error' in input) return { records: [], errors: [input.error] };
  const records: ImportedRecord[] = [];
  const errors: RecordError[] = [];
  input.rows.forEach((row, index) => {
    const parsed = schema.safeParse(row);
    const record = parsed.success ? recordOf(parsed.data) : issuesText(parsed.error);
    if (typeof record === 'string') errors.push({ record: labelOf(row, index), message: record });
    else if (record) records.push(record);
  });
  return { records, errors };
}

/** A record that could not be read: skipped with a message naming it; the rest still load. */
export interface RecordError {
  /** Which record: its id, title or position in the input. */
  record: string;
  message: string;
}

export interface ParseResult {
  records: ImportedRecord[];
  errors: RecordError[];
  /** Why some of the input's events were left out (a limit it went over), when they were. */
  cut?: string;
}

/** An input that says nothing usable: the error about it as a whole, or the first when not one record was read. */
export function unusableInput(parsed: ParseResult): RecordError | undefined {
  const whole = parsed.errors.find((e) => e.record === FILE_RECORD);
  if (whole) return whole;
  return parsed.records.length === 0 ? parsed.errors[0] : undefined;
}

export interface ParseOptions {
  now: Date;
  /** Default country for records that name none and whose city does not tell. */
  defaultCountry?: Country;
  /** Where the input was read (URL or path); a confs.tech file's name is the topic of its conferences. */
  inputName?: string;
}

/** Each source format is one module behind this interface. */
export interface Importer {
  format: string;
  description: string;
  /** What an input of this format is, in words for messages ("an iCalendar feed"): a calendar's is named by it. */
  what?: string;
  /** Whole-world data sets: records outside CH/DE/AT are counted as elsewhere, not reported one by one as skipped. */
  worldwide?: boolean;
  /**
   * Each URL is one calendar, the complete state of its events (iCal), synced on its own; otherwise a feed's URLs
   * are parts of one data set (confs.tech's topic files), synced all or nothing.
   */
  calendar?: boolean;
  parse(input: string, options: ParseOptions): ParseResult;
  /** `parse` in steps with `pause()` between them, so a large input does not hold up a serving process. */
  parseInSteps?(input: string, options: ParseOptions, pause: () => Promise<void>): Promise<ParseResult>;
  /**
   * A digest of what the input says, leaving out what changes with every request (iCal's DTSTAMP): equal digests
   * mean an unchanged calendar, for servers that send no validators.
   */
  digest?(input: string): string;
}
