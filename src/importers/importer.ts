import type { Country } from '../catalogue/countries.js';
import type { EventFormat, PriceType, RegMode, Visibility } from '../catalogue/event.js';

/**
 * One record of a source, in source-neutral terms, before enrichment. Importers only parse; enrichment
 * (country, place, topics, currency) and storage are shared (see enrich.ts and run-import.ts).
 */
export interface ImportedRecord {
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
}

/** Each source format is one module behind this interface. */
export interface Importer {
  format: string;
  description: string;
  parse(input: string, options: ParseOptions): ParseResult;
}
