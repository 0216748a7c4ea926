import type { EventFormat, PlainContent, PriceType, RegMode, Visibility } from '../catalogue/event.js';
import type { Country } from '../places/countries.js';

/**
 * One record of a source, in source-neutral terms, before enrichment, with the plain fields (PLAIN_FIELDS) under
 * their own names when the source says. Importers only parse; enrichment (country, place, topics, currency) and
 * storage are shared (see enrich.ts and run-import.ts).
 */
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

/**
 * The language of an event from the languages its source lists ("EN", "DE,EN", ["german"]): the one named when
 * exactly one is, else undefined (unknown, or several: a bilingual event is not "in" either).
 */
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

/** A record that could not be read: skipped with a message naming it; the rest still load. */
export interface RecordError {
  /** Which record: its id, title or position in the input. */
  record: string;
  message: string;
}

export interface ParseResult {
  records: ImportedRecord[];
  errors: RecordError[];
}

export interface ParseOptions {
  now: Date;
  /** Default country for records that name none and whose city does not tell. */
  defaultCountry?: Country;
  /**
   * Where the input was read (a URL or a file path). Some layouts carry meaning in it: a confs.tech file's name
   * is the topic of its conferences.
   */
  inputName?: string;
}

/** Each source format is one module behind this interface. */
export interface Importer {
  format: string;
  description: string;
  /**
   * True for data sets of the whole world (confs.tech, devopsdays, developers.events): their records outside
   * Switzerland, Germany and Austria are counted as elsewhere, not reported one by one as skipped.
   */
  worldwide?: boolean;
  /**
   * True when each URL of the format is one calendar, the complete state of its own events (iCal): the calendars of
   * a feed are synced each on its own. Otherwise the URLs of a feed are parts of one data set (confs.tech's topic
   * files, where one conference sits in several), synced all or nothing.
   */
  calendar?: boolean;
  parse(input: string, options: ParseOptions): ParseResult;
  /**
   * The same result as `parse`, made in steps with `pause()` awaited between them: for large inputs read in a
   * process that serves requests, where one long parse would hold them all up. Formats whose inputs come in small
   * files leave it out.
   */
  parseInSteps?(input: string, options: ParseOptions, pause: () => Promise<void>): Promise<ParseResult>;
}
