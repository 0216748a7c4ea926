import { z } from 'zod';
import { COUNTRIES, COUNTRY_INFO } from '../places/countries.js';
import { toQueryString } from '../query/params.js';
import { type Alternative, CONSTRAINT_NAMES, type SearchResult, type Widening } from '../query/read-index.js';
import type { Coverage } from '../use-cases/coverage.js';
import { coverageSchema, toCoverageView } from './coverage.js';
import { eventViewSchema, toEventView } from './event-json.js';
import { inEnglish, sayPhrase } from './phrase.js';
import { constraintText, describeQuery } from './restate.js';

/** A near miss: an event that misses exactly one constraint of the query, and how it differs. */
export const alternativeViewSchema = eventViewSchema.extend({
  constraint: z.enum(CONSTRAINT_NAMES).describe('The constraint it misses'),
  differs: z.string().describe('How it differs, in plain words: "in March, not next week", "a DevOps event"'),
});

/** The event list response (docs/contract.md, An event, as read: the list response), defined once for JSON, MCP and OpenAPI. */
export const searchResponseSchema = z.object({
  query: z
    .object({
      country: z.string(),
      q: z.string(),
      topics: z.array(z.string()),
      limit: z.number().int(),
      city: z.string().optional().describe('The city events are held to: the city parameter, or the place q names'),
      near: z.boolean().optional().describe('The city stands for about 45 km around it'),
      window: z
        .object({ from: z.string(), to: z.string() })
        .optional()
        .describe('The date window q names, local dates (inclusive)'),
      from: z.string().optional(),
      to: z.string().optional(),
      seniority: z.array(z.string()).optional(),
      kinds: z.array(z.string()).optional().describe('Kinds of event q names'),
      formats: z.array(z.string()).optional(),
      price: z.enum(['free', 'paid']).optional(),
      org: z.string().optional(),
      who: z.enum(['founders']).optional(),
      cfp: z.enum(['open']).optional(),
      plain: z
        .record(z.string(), z.array(z.string()))
        .optional()
        .describe('Filters by plain fields, by parameter (lang, access): the values asked'),
    })
    .describe('The query as interpreted: every filter applied, from the parameters and from q'),
  count: z.number().int().describe('Events in this response'),
  total: z.number().int().describe('Matching events overall'),
  understood: z.string().describe('How the prompt was understood, in one sentence'),
  calendar: z.string().describe('The same query as a calendar subscription'),
  feed: z.string().describe('The same query as an Atom feed of what is new'),
  events: z.array(eventViewSchema).describe('Every event meets everything `understood` says'),
  alternatives: z
    .array(alternativeViewSchema)
    .optional()
    .describe(
      'When fewer events match than asked for (first page): near misses, up to 10, each missing exactly one constraint, nearest first (another date or kind, a related subject, the subject elsewhere, another subject) — not matches, and never in a calendar',
    ),
  widen: z
    .array(
      z.object({
        constraint: z.enum(CONSTRAINT_NAMES),
        without: z.string().describe('The constraint as `understood` says it'),
        total: z.number().int().describe('Events dropping it would find'),
        country: z.enum(COUNTRIES).optional().describe('For a place or country dropped: the country holding them'),
        url: z.string().optional().describe('For a place or country dropped: the query that lists them there'),
      }),
    )
    .optional()
    .describe(
      'When nothing matches: how many events dropping each constraint would find, most first; when few match (under 5), the other countries holding matches, each with the query to follow',
    ),
  next: z
    .string()
    .optional()
    .describe('When more events match: the URL of the next page (also in the Link header, rel="next")'),
  coverage: coverageSchema.optional(),
});
export type SearchResponse = z.output<typeof searchResponseSchema>;

/** The query string of a widening to another country: the same parameters, that country, the prompt to ask there. */
export function followQuery(result: SearchResult, follow: NonNullable<Widening['follow']>): string {
  return toQueryString({ ...result.params, country: follow.country, q: follow.q });
}

/** For a widening to another country, where those events are and the URL listing them: " in Germany (<url>)". */
export function followText(w: Widening, result: SearchResult, baseUrl: string, path: string): string {
  return w.follow
    ? ` in ${COUNTRY_INFO[w.follow.country].name} (<${baseUrl}${path}?${followQuery(result, w.follow)}>)`
    : '';
}

export function calendarUrl(baseUrl: string, result: SearchResult): string {
  return `${baseUrl}/api/calendar?${toQueryString({ ...result.params, country: result.country })}`;
}

export function feedUrl(baseUrl: string, result: SearchResult): string {
  return `${baseUrl}/api/feed?${toQueryString({ ...result.params, country: result.country })}`;
}

/** The URL of the page after this one: the same query (the country as searched) with the cursor. */
export function nextPageUrl(baseUrl: string, result: SearchResult, cursor: string): string {
  return `${baseUrl}/api/events?${toQueryString({ ...result.params, country: result.country }, { cursor })}`;
}

export function toSearchResponse(
  result: SearchResult & { nextCursor?: string | undefined },
  baseUrl: string,
  coverage?: Coverage,
): SearchResponse {
  const topics = [...new Set([...result.params.topics, ...result.understanding.topics.map((t) => t.slug)])];
  return {
    query: { country: result.country, q: result.params.q, topics, limit: result.params.limit, ...result.filters },
    count: result.events.length,
    total: result.total,
    understood: describeQuery(result.restatement),
    calendar: calendarUrl(baseUrl, result),
    feed: feedUrl(baseUrl, result),
    events: result.events.map((r) => toEventView(r.event, baseUrl, inEnglish(r.reasons))),
    ...(result.alternatives ? { alternatives: result.alternatives.map((a) => toAlternativeView(a, baseUrl)) } : {}),
    ...(result.widen ? { widen: result.widen.map((w) => toWideningView(w, baseUrl, result)) } : {}),
    ...(result.nextCursor ? { next: nextPageUrl(baseUrl, result, result.nextCursor) } : {}),
    ...(coverage ? { coverage: toCoverageView(coverage, baseUrl) } : {}),
  };
}

/** A way to widen the answer; for another country, the URL listing what it holds. */
function toWideningView({ follow, constraint, total }: Widening, baseUrl: string, result: SearchResult) {
  const view = { constraint, without: constraintText(result, constraint), total };
  if (!follow) return view;
  return { ...view, country: follow.country, url: `${baseUrl}/api/events?${followQuery(result, follow)}` };
}

export function toAlternativeView(a: Alternative, baseUrl: string): z.output<typeof alternativeViewSchema> {
  return {
    ...toEventView(a.event, baseUrl, inEnglish(a.reasons)),
    constraint: a.constraint,
    differs: sayPhrase(a.differs),
  };
}
