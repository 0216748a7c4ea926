import type { Country } from './countries.js';

export const REG_MODES = ['open', 'invite', 'waitlist'] as const;
export type RegMode = (typeof REG_MODES)[number];
export const PRICE_TYPES = ['free', 'paid', 'unknown'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];
export const VISIBILITIES = ['public', 'unlisted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const EVENT_FORMATS = ['in_person', 'online', 'hybrid'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];
export type Lifecycle = 'listed' | 'cancelled';
export type GeoPrecision = 'exact' | 'city' | 'country' | 'none';

/** Who owns an event: a host key, or an importer's source. Stored as `key:<id>` / `source:<name>`. */
export type Owner = `key:${string}` | `source:${string}`;
export const keyOwner = (keyId: string): Owner => `key:${keyId}`;
export const sourceOwner = (source: string): Owner => `source:${source}`;

/** `source` of events pushed by a host through the write API. */
export const HOST_SOURCE = 'host';

/** The content of an event: everything a write sets (and an update replaces). */
export interface EventContent {
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
] as const satisfies readonly (keyof EventContent)[];

/** True when a write would change nothing, so a resent payload adds no revision. */
export function sameContent(a: EventContent, b: EventContent): boolean {
  return CONTENT_FIELDS.every((field) => {
    const x = a[field];
    const y = b[field];
    if (x instanceof Date || y instanceof Date) return (x as Date | null)?.getTime() === (y as Date | null)?.getTime();
    if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => v === y[i]);
    return x === y;
  });
}
