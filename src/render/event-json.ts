import { z } from 'zod';
import { callForPapers } from '../catalogue/cfp.js';
import {
  type CatalogueEvent,
  CURRENCIES,
  EVENT_FORMATS,
  GEO_PRECISIONS,
  LIFECYCLES,
  PLAIN_FIELD_NAMES,
  type PlainFieldName,
  PRICE_TYPES,
  plainContentOf,
  plainFieldSchema,
  REG_MODES,
  VISIBILITIES,
} from '../catalogue/event.js';

/** The plain fields of the event model (catalogue/event.ts), each shown under its name, null when unknown. */
const plainOutputs = Object.fromEntries(
  PLAIN_FIELD_NAMES.map((name) => [name, plainFieldSchema(name).nullable()]),
) as Record<PlainFieldName, z.ZodNullable<ReturnType<typeof plainFieldSchema>>>;

/**
 * The public read shape of an event (docs/contract.md, An event, as read), defined once: JSON listings, MCP tool outputs and the OpenAPI
 * `Event` schema all derive from it.
 */
export const eventViewSchema = z.object({
  id: z.string().describe('Slug identifying the event; never changes'),
  title: z.string(),
  start: z.string().describe('ISO 8601 UTC timestamp with milliseconds'),
  end: z.string().nullable().describe('Extension. ISO 8601 UTC; for all-day events the exclusive local midnight after'),
  allDay: z.boolean().describe('Extension. Takes whole days: show dates, no clock time'),
  format: z.enum(EVENT_FORMATS),
  rsvp: z.enum(REG_MODES).describe('Registration mode'),
  city: z.string().optional().describe('Present for located events'),
  venue: z.string().optional().describe('Present for located events'),
  geo: z
    .object({
      lat: z.number(),
      lng: z.number(),
      precision: z.enum(GEO_PRECISIONS).describe('exact: the event’s own point; city or country: a centroid'),
    })
    .nullable(),
  price: z.object({
    type: z.enum(PRICE_TYPES),
    amount: z.number().nullable(),
    currency: z.enum(CURRENCIES).describe('CHF for ch, EUR for de and at'),
  }),
  topics: z.array(z.string()).describe('Topic slugs (the `topic` parameter lists them)'),
  seniority: z.array(z.string()),
  organizer: z.string(),
  source: z
    .string()
    .describe(
      '`host` for host-pushed events, else the name of the source that imported it (`confs-tech`, `devopsdays`, a feed of the feeds file…)',
    ),
  sourceUrl: z.string().describe('The original link of the event'),
  url: z.string().describe('The event page, {base}/{country}/events/{id}'),
  matchReasons: z.array(z.string()).describe('Why the event matched the query'),
  cfp: z
    .object({
      url: z.string().nullable().describe('Where speakers submit talks'),
      until: z.string().nullable().describe('The deadline: a local date (the whole day counts) or a date-time'),
    })
    .nullable()
    .describe('Extension. The call for papers, when there is one'),
  ...plainOutputs,
});
export type EventView = z.output<typeof eventViewSchema>;

/** The owner's view (`mine=1`) adds what only the owner needs, and every value the owner sent reads back. */
export const ownEventViewSchema = eventViewSchema.extend({
  lifecycle: z.enum(LIFECYCLES),
  visibility: z.enum(VISIBILITIES),
  externalId: z.string().nullable(),
  description: z.string().nullable(),
  capacity: z.number().int().nullable(),
});
export type OwnEventView = z.output<typeof ownEventViewSchema>;

/** One event in full (MCP get_event): the read shape with its state, end and description. */
export const eventDetailSchema = eventViewSchema.extend({
  lifecycle: z.enum(LIFECYCLES),
  description: z.string().nullable(),
});

export function eventPageUrl(baseUrl: string, event: Pick<CatalogueEvent, 'country' | 'id'>): string {
  return `${baseUrl}/${event.country}/events/${encodeURIComponent(event.id)}`;
}

export function toEventView(event: CatalogueEvent, baseUrl: string, matchReasons: readonly string[] = []): EventView {
  const url = eventPageUrl(baseUrl, event);
  return {
    id: event.id,
    title: event.title,
    start: event.start.toISOString(),
    end: event.end?.toISOString() ?? null,
    allDay: event.allDay,
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
    // A copy: the reasons belong to an answer the read index may hand out again.
    matchReasons: [...matchReasons],
    cfp: callForPapers(event),
    ...plainContentOf(event),
  };
}

export function toOwnEventView(event: CatalogueEvent, baseUrl: string): OwnEventView {
  return {
    ...toEventView(event, baseUrl),
    lifecycle: event.lifecycle,
    visibility: event.visibility,
    externalId: event.externalId,
    description: event.description,
    capacity: event.capacity,
  };
}

export function toEventDetail(event: CatalogueEvent, baseUrl: string): z.output<typeof eventDetailSchema> {
  return {
    ...toEventView(event, baseUrl),
    lifecycle: event.lifecycle,
    description: event.description,
  };
}
