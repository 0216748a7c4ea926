import { z } from 'zod';
import { COUNTRIES, type Country } from '../catalogue/countries.js';
import { ValidationError } from '../catalogue/errors.js';
import type { EventFormat } from '../catalogue/event.js';
import { fieldErrors } from '../catalogue/submission.js';
import {
  FORMATS,
  isSeniority,
  isTopic,
  SENIORITIES,
  type Seniority,
  TOPIC_SLUGS,
  type TopicSlug,
} from '../catalogue/taxonomy.js';
import { type Place, resolveCity } from '../places/gazetteer.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** `near=1` widens a city filter to this great-circle radius around the city's centre. */
export const NEAR_RADIUS_KM = 45;

const list = (name: string, valid: (v: string) => boolean, allowed: readonly string[]) =>
  z
    .string()
    .max(500)
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((v) => v.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .superRefine((values, ctx) => {
      const unknown = values.filter((v) => !valid(v));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown ${name} ${unknown.map((u) => `"${u}"`).join(', ')}; use ${allowed.join(', ')}`,
        });
      }
    });

/** The query grammar shared by /api/events, /api/md, /api/calendar and the MCP tools (spec §4.1). */
export const searchQuerySchema = z.object({
  country: z.enum(COUNTRIES, { error: 'must be ch, de or at' }).optional(),
  q: z.string().max(500, 'must be at most 500 characters').optional(),
  topic: list('topic', isTopic, TOPIC_SLUGS).optional(),
  seniority: list('seniority', isSeniority, SENIORITIES).optional(),
  city: z.string().trim().min(1, 'must not be empty').max(120).optional(),
  near: z.enum(['1', '0', 'true', 'false'], { error: 'must be 1' }).optional(),
  format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
  org: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  who: z.enum(['founders'], { error: 'must be founders' }).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, `must be a whole number from 1 to ${MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().min(1, `must be from 1 to ${MAX_LIMIT}`).max(MAX_LIMIT, `must be from 1 to ${MAX_LIMIT}`))
    .optional(),
  from: z.iso.date('must be a date YYYY-MM-DD').optional(),
  to: z.iso.date('must be a date YYYY-MM-DD').optional(),
  mine: z.enum(['1', '0'], { error: 'must be 1' }).optional(),
});

export type RawSearchQuery = z.input<typeof searchQuerySchema>;

/** A parsed, validated query. Every output runs exactly this through the engine. */
export interface SearchParams {
  country: Country;
  /** Whether `country` was given, or defaulted (a place named in `q` may then pick the country). */
  countryExplicit: boolean;
  q: string;
  topics: TopicSlug[];
  seniority: Seniority[];
  city: Place | undefined;
  /** The city as the caller wrote it, echoed in links. */
  cityInput: string | undefined;
  near: boolean;
  format: EventFormat | undefined;
  org: string | undefined;
  who: 'founders' | undefined;
  limit: number;
  /** Local dates (inclusive) bounding the start of events; used by MCP find_events. */
  from: string | undefined;
  to: string | undefined;
}

/** Validates a query (strings, as from a URL) or throws a 422 naming each bad parameter. */
export function parseSearchParams(raw: Record<string, unknown>): SearchParams {
  // Repeated parameters arrive as arrays; the grammar takes each once.
  const flat = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
  const parsed = searchQuerySchema.safeParse(flat);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  const p = parsed.data;
  const country = p.country ?? 'ch';
  const near = p.near === '1' || p.near === 'true';
  const errors = [];
  let city: Place | undefined;
  if (p.city) {
    city = resolveCity(p.city, country);
    if (!city) errors.push({ field: 'city', message: `"${p.city}" is not a known city in ${country}` });
  }
  if (near && !p.city) errors.push({ field: 'near', message: 'needs city' });
  if (p.from && p.to && p.to < p.from) errors.push({ field: 'to', message: 'must not be before from' });
  if (errors.length > 0) throw new ValidationError(errors);
  return {
    country,
    countryExplicit: p.country !== undefined,
    q: (p.q ?? '').trim(),
    topics: (p.topic ?? []) as TopicSlug[],
    seniority: (p.seniority ?? []) as Seniority[],
    city,
    cityInput: p.city,
    near,
    format: p.format,
    org: p.org,
    who: p.who,
    limit: p.limit ?? DEFAULT_LIMIT,
    from: p.from,
    to: p.to,
  };
}

/** The query string that reproduces these parameters (for calendar, markdown and page links). */
export function toQueryString(params: SearchParams, extra: Record<string, string> = {}): string {
  const search = new URLSearchParams();
  search.set('country', params.country);
  if (params.q) search.set('q', params.q);
  if (params.topics.length) search.set('topic', params.topics.join(','));
  if (params.seniority.length) search.set('seniority', params.seniority.join(','));
  if (params.cityInput) search.set('city', params.cityInput);
  if (params.near) search.set('near', '1');
  if (params.format) search.set('format', params.format);
  if (params.org) search.set('org', params.org);
  if (params.who) search.set('who', params.who);
  if (params.from) search.set('from', params.from);
  if (params.to) search.set('to', params.to);
  if (params.limit !== DEFAULT_LIMIT) search.set('limit', String(params.limit));
  for (const [k, v] of Object.entries(extra)) search.set(k, v);
  return search.toString();
}
