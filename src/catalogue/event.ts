import { z } from 'zod';
import type { Country } from '../places/countries.js';

export const REG_MODES = ['open', 'invite', 'waitlist'] as const;
export type RegMode = (typeof REG_MODES)[number];
export const PRICE_TYPES = ['free', 'paid', 'unknown'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];
export const VISIBILITIES = ['public', 'unlisted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const EVENT_FORMATS = ['in_person', 'online', 'hybrid'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];
export const LIFECYCLES = ['listed', 'cancelled'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];
export const GEO_PRECISIONS = ['exact', 'city', 'country', 'none'] as const;
export type GeoPrecision = (typeof GEO_PRECISIONS)[number];
export const CURRENCIES = ['CHF', 'EUR'] as const;

/** Who owns an event: a host key, or an importer's source. Stored as `key:<id>` / `source:<name>`. */
export type Owner = `key:${string}` | `source:${string}`;
export const keyOwner = (keyId: string): Owner => `key:${keyId}`;
export const sourceOwner = (source: string): Owner => `source:${source}`;

/** The organizer of an imported event whose source names none (pages show it in the reader's language). */
export const UNKNOWN_ORGANIZER = 'Unknown organizer';

/** `source` of events pushed by a host through the write API. */
export const HOST_SOURCE = 'host';
/**
 * Whether the service owns an event's registration, so that it takes RSVPs: pushed by a host, neither imported nor
 * synced from a calendar the host linked (whose externalIds are `<calendar id>|<UID>`, calendar ids `cal_<hex>`): the
 * registration of those is at their source.
 */
export function takesRsvps(event: { source: string; externalId: string | null }): boolean {
  return event.source === HOST_SOURCE && !/^cal_[0-9a-f]+\|/.test(event.externalId ?? '');
}

/** `source` of the events of calendars communities proposed and the operator accepted. */
export const COMMUNITY_SOURCE = 'community';

/**
 * The languages the service speaks to people in (its pages, its restatements; i18n/languages.ts names them
 * LANGUAGES): a plain field says itself in each. Italian for the Italian-speaking part of Switzerland.
 */
export const SPEAKING = ['en', 'de', 'fr', 'it'] as const;
export type Speaking = (typeof SPEAKING)[number];

/** A plain field in one language: its name, how a filter by it is restated, and its values' names. */
export interface PlainFieldWords<V extends string> {
  /** What it is called ("Accessibility", "Barrierefreiheit"). */
  title: string;
  /** How a filter by it is restated, `{values}` standing for the values asked ("with {values}", "mit {values}"). */
  filtered: string;
  /** What each value is called in sentences ("sign language or captions"). */
  labels: Record<V, string>;
}

/** A field of an event that is stored, written and read as it is (see PLAIN_FIELDS). */
export interface PlainField<V extends string = string> {
  /** What it is called in reasons ("Language"): its English title. */
  title: string;
  /** Its values; a write or a source may leave it out (stored as null). */
  values: readonly [V, ...V[]];
  /** What each value is called in English sentences ("German"). */
  labels: Record<V, string>;
  /** Its words in each language, English included: the pages, the restatement and the field errors say these. */
  words: Record<Speaking, PlainFieldWords<V>>;
  /** What it means, for the API documentation. */
  description: string;
  /** The query parameter that filters by it (a list of values, any of them), when it is one. */
  filter?: string;
}

/** A plain field whose English title and labels are its English words. */
const plainField = <V extends string>(field: Omit<PlainField<V>, 'title' | 'labels'>): PlainField<V> => ({
  ...field,
  title: field.words.en.title,
  labels: field.words.en.labels,
});

/**
 * Plain fields of an event, each defined once here: stored in a column of its name (snake_case), accepted under its
 * name on POST /api/events and from importers, shown in the read shape (null when unknown), and, with `filter`, a
 * hard filter of the query grammar (HTTP, MCP, OpenAPI, pages, the embed), said in each language by its `words`. A new
 * plain field is an entry here and a migration adding its column.
 */
export const PLAIN_FIELDS = {
  language: plainField({
    values: ['en', 'de', 'fr', 'it'],
    words: {
      en: {
        title: 'Language',
        filtered: 'held in {values}',
        labels: { en: 'English', de: 'German', fr: 'French', it: 'Italian' },
      },
      de: {
        title: 'Sprache',
        filtered: 'auf {values}',
        labels: { en: 'Englisch', de: 'Deutsch', fr: 'Französisch', it: 'Italienisch' },
      },
      fr: {
        title: 'Langue',
        filtered: 'en {values}',
        labels: { en: 'anglais', de: 'allemand', fr: 'français', it: 'italien' },
      },
      it: {
        title: 'Lingua',
        filtered: 'in {values}',
        labels: { en: 'inglese', de: 'tedesco', fr: 'francese', it: 'italiano' },
      },
    },
    description: 'The language the event is held in (en, de, fr or it); null when not known',
    filter: 'lang',
  }),
  accessibility: plainField({
    values: ['sign-language-or-captions'],
    words: {
      en: {
        title: 'Accessibility',
        filtered: 'with {values}',
        labels: { 'sign-language-or-captions': 'sign language or captions' },
      },
      de: {
        title: 'Barrierefreiheit',
        filtered: 'mit {values}',
        labels: { 'sign-language-or-captions': 'Gebärdensprache oder Untertiteln' },
      },
      fr: {
        title: 'Accessibilité',
        filtered: 'avec {values}',
        labels: { 'sign-language-or-captions': 'langue des signes ou sous-titres' },
      },
      it: {
        title: 'Accessibilità',
        filtered: 'con {values}',
        labels: { 'sign-language-or-captions': 'lingua dei segni o sottotitoli' },
      },
    },
    description:
      'What the event offers deaf and hard-of-hearing attendees: sign-language-or-captions when its talks are ' +
      'interpreted into sign language or captioned; null when not known',
    filter: 'access',
  }),
} as const satisfies Record<string, PlainField>;

type PlainFields = typeof PLAIN_FIELDS;
export type PlainFieldName = keyof PlainFields & string;
/** The plain fields' values of one event. */
export type PlainContent = {
  [K in PlainFieldName]: PlainFields[K] extends PlainField<infer V> ? V | null : never;
};
export const PLAIN_FIELD_NAMES = Object.keys(PLAIN_FIELDS) as PlainFieldName[];

/** The zod schema of one plain field's value (null when unknown). */
export function plainFieldSchema(name: PlainFieldName) {
  const field: PlainField = PLAIN_FIELDS[name];
  return z.enum(field.values, { error: `must be one of ${field.values.join(', ')}` }).describe(field.description);
}

/** The plain fields of anything that may carry them (a submission, a record), unknown ones as null. */
export function plainContentOf(source: Partial<Record<PlainFieldName, unknown>>): PlainContent {
  const out: Record<string, unknown> = {};
  for (const name of PLAIN_FIELD_NAMES) out[name] = source[name] ?? null;
  return out as PlainContent;
}

/** The content of an event: everything a write sets (and an update replaces). */
export interface EventContent extends PlainContent {
  country: Country;
  title: string;
  description: string | null;
  start: Date;
  end: Date | null;
  /** All-day events have local-midnight bounds and no clock time: `end` is the exclusive next midnight. */
  allDay: boolean;
  city: string | null;
  venue: string | null;
  format: EventFormat;
  topics: string[];
  seniority: string[];
  regMode: RegMode;
  capacity: number | null;
  priceType: PriceType;
  /** Exact decimal as a string (e.g. "12.50"), as stored in numeric(12,2). */
  priceAmount: string | null;
  currency: 'CHF' | 'EUR';
  organizer: string;
  url: string | null;
  sourceUrl: string | null;
  lat: number | null;
  lng: number | null;
  geoPrecision: GeoPrecision;
  visibility: Visibility;
  /** Where speakers submit talks (call for papers), if there is a call. */
  cfpUrl: string | null;
  /** The call's deadline as given: a local date YYYY-MM-DD (the whole day counts) or an ISO date-time with offset. */
  cfpUntil: string | null;
}

/** Events without an end are taken to last this long (a typical evening meetup). */
const ASSUMED_DURATION_MS = 3 * 60 * 60 * 1000;

/** When an event ends, in epoch ms: its end, or its start plus three hours when it has none. */
export function endsAt(event: Pick<EventContent, 'start' | 'end'>): number {
  return event.end ? event.end.getTime() : event.start.getTime() + ASSUMED_DURATION_MS;
}

/** An event as stored: content plus identity, ownership and lifecycle. */
export interface CatalogueEvent extends EventContent {
  id: string;
  owner: Owner;
  externalId: string | null;
  source: string;
  lifecycle: Lifecycle;
  /** Grows with every change (iCal SEQUENCE). */
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

const CONTENT_FIELDS = [
  'country',
  'title',
  'description',
  'start',
  'end',
  'allDay',
  'city',
  'venue',
  'format',
  'topics',
  'seniority',
  'regMode',
  'capacity',
  'priceType',
  'priceAmount',
  'currency',
  'organizer',
  'url',
  'sourceUrl',
  'lat',
  'lng',
  'geoPrecision',
  'visibility',
  'cfpUrl',
  'cfpUntil',
] as const satisfies readonly (keyof EventContent)[];

/** True when a write would change nothing, so a resent payload adds no revision. */
export function sameContent(a: EventContent, b: EventContent): boolean {
  return [...CONTENT_FIELDS, ...PLAIN_FIELD_NAMES].every((field) => {
    const x = a[field];
    const y = b[field];
    if (x instanceof Date || y instanceof Date) return (x as Date | null)?.getTime() === (y as Date | null)?.getTime();
    if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => v === y[i]);
    return x === y;
  });
}
