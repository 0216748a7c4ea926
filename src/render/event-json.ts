import type { CatalogueEvent } from '../catalogue/event.js';

/** The public read shape of an event (spec §2.1), exactly these fields. */
export interface EventView {
  id: string;
  title: string;
  start: string;
  format: string;
  rsvp: string;
  city?: string;
  venue?: string;
  geo: { lat: number; lng: number; precision: string } | null;
  price: { type: string; amount: number | null; currency: string };
  topics: string[];
  seniority: string[];
  organizer: string;
  source: string;
  sourceUrl: string;
  url: string;
  matchReasons: string[];
}

/** The owner's view (`mine=1`) adds what only the owner needs. */
export interface OwnEventView extends EventView {
  lifecycle: string;
  visibility: string;
  externalId: string | null;
}

export function eventPageUrl(baseUrl: string, event: Pick<CatalogueEvent, 'country' | 'id'>): string {
  return `${baseUrl}/${event.country}/events/${encodeURIComponent(event.id)}`;
}

export function toEventView(event: CatalogueEvent, baseUrl: string, matchReasons: string[] = []): EventView {
  const url = eventPageUrl(baseUrl, event);
  return {
    id: event.id,
    title: event.title,
    start: event.start.toISOString(),
    format: event.format,
    rsvp: event.regMode,
    ...(event.city ? { city: event.city } : {}),
    ...(event.venue ? { venue: event.venue } : {}),
    geo:
      event.lat !== null && event.lng !== null
        ? { lat: event.lat, lng: event.lng, precision: event.geoPrecision }
        : null,
    price: {
      type: event.priceType,
      amount: event.priceAmount === null ? null : Number(event.priceAmount),
      currency: event.currency,
    },
    topics: event.topics,
    seniority: event.seniority,
    organizer: event.organizer,
    source: event.source,
    sourceUrl: event.sourceUrl ?? event.url ?? url,
    url,
    matchReasons,
  };
}

export function toOwnEventView(event: CatalogueEvent, baseUrl: string): OwnEventView {
  return {
    ...toEventView(event, baseUrl),
    lifecycle: event.lifecycle,
    visibility: event.visibility,
    externalId: event.externalId,
  };
}
