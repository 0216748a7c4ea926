import { z } from 'zod';
import { shownValue, ValidationError } from '../catalogue/errors.js';
import {
  type EventFormat,
  PLAIN_FIELD_NAMES,
  PLAIN_FIELDS,
  type PlainField,
  type PlainFieldName,
} from '../catalogue/event.js';
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
import { COUNTRIES } from '../places/countries.js';
import { type Place, resolveCity } from '../places/gazetteer.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** `near=1` widens a city filter to this great-circle radius around the city's centre. */
export const NEAR_RADIUS_KM = 45;

/** A list parameter as a URL or a tool call carries it: "a,b", or ["a", "b"] (a repeated URL parameter, a JSON list). */
const listOf = (allowed: readonly string[]) => {
  const error = `must be a comma list of ${allowed.join(', ')} (or a list of them), at most 50`;
  // The values are published as the items' enum (OpenAPI, MCP); parsing takes them in any case and reports unknown ones.
  const item = z
    .string()
    .max(100, error)
    .meta({ enum: [...allowed] });
  return z.union([z.string().max(500, error), z.array(item).max(50, error)], { error });
};

const list = (name: string, valid: (v: string) => boolean, allowed: readonly string[]) =>
  listOf(allowed)
    .transform((value) => [
      ...new Set(
        (Array.isArray(value) ? value : [value])
          .flatMap((v) => v.split(','))
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
          params: { quoted: true },
        });
      }
    });

const limitMessage = `must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`;
const countryMessage = 'must be ch, de, at or all';
const nearMessage = `must be 1 or true (with city: widen it to about ${NEAR_RADIUS_KM} km around), or 0 or false`;
const dateMessage = 'must be a date YYYY-MM-DD, e.g. 2026-12-03';
const cursorMessage = 'must be the cursor of the previous page’s `next` link, unchanged';
const textMessage = (what: string, max: number) => `must be ${what}, at most ${max} characters`;

/**
 * The query grammar shared by every output (docs/contract.md, Reading: the query grammar): /api/events, /api/md, /api/calendar, the pages and the MCP
 * tools. Each parameter in two views: `input`, the value forms it is given in (strings, as in a URL; lists also as
 * arrays, numbers and booleans as such, as a tool call sends them), which the MCP tools and OpenAPI publish; and
 * `parse`, which validates and normalises them.
 */
/** What a query searches: one country, or all three. */
export const SCOPES = [...COUNTRIES, 'all'] as const;
export type Scope = (typeof SCOPES)[number];

const GRAMMAR = {
  country: {
    input: z
      .enum(SCOPES, { error: countryMessage })
      .describe('ch (default), de, at, or all three; a place or country named in q decides over it'),
    parse: z.enum(SCOPES, { error: countryMessage }),
  },
  q: {
    input: z
      .string({ error: textMessage('free text', 500) })
      .describe('Free text in English, German, French or Italian: ranks events and explains matches'),
    parse: z.string({ error: textMessage('free text', 500) }).max(500, textMessage('free text', 500)),
  },
  topic: {
    input: listOf(TOPIC_SLUGS).describe(
      `Topic slugs, comma-separated or a list; any of them (${TOPIC_SLUGS.join(', ')}; docs/taxonomy.md)`,
    ),
    parse: list('topic', isTopic, TOPIC_SLUGS),
  },
  seniority: {
    input: listOf(SENIORITIES).describe(`Seniority levels, comma-separated or a list (${SENIORITIES.join(', ')})`),
    parse: list('seniority', isSeniority, SENIORITIES),
  },
  city: {
    input: z
      .string({ error: textMessage('a city name in any spelling, e.g. Zürich or Munich', 120) })
      .describe('City in any spelling (Zürich, Zurich, Genf, Munich…); a hard filter'),
    parse: z
      .string({ error: textMessage('a city name in any spelling, e.g. Zürich or Munich', 120) })
      .trim()
      .min(1, 'must not be empty: a city name in any spelling, e.g. Zürich or Munich')
      .max(120, textMessage('a city name', 120)),
  },
  near: {
    input: z
      .union([z.enum(['1', '0', 'true', 'false']), z.boolean()], { error: nearMessage })
      .describe('With city: widen to about 45 km'),
    parse: z.union([z.enum(['1', '0', 'true', 'false']), z.boolean()], { error: nearMessage }),
  },
  format: {
    input: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).describe('in_person, online or hybrid'),
    parse: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }),
  },
  org: {
    input: z.string({ error: textMessage("an organizer's name", 200) }).describe("One organizer's events (exact name)"),
    parse: z
      .string({ error: textMessage("an organizer's name", 200) })
      .trim()
      .min(1, "must not be empty: an organizer's exact name")
      .max(200, textMessage("an organizer's name", 200)),
  },
  who: {
    input: z
      .enum(['founders'], { error: 'must be founders' })
      .describe('founders: rooms where founders and executives actually go'),
    parse: z.enum(['founders'], { error: 'must be founders' }),
  },
  cfp: {
    input: z
      .enum(['open'], { error: 'must be open' })
      .describe('open: events whose call for papers is still open, soonest deadline first'),
    parse: z.enum(['open'], { error: 'must be open' }),
  },
  limit: {
    input: z
      .union(
        [
          z.string().regex(/^\d+$/, limitMessage),
          z.number().int(limitMessage).min(1, limitMessage).max(MAX_LIMIT, limitMessage),
        ],
        { error: limitMessage },
      )
      .describe(`Events returned, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
    parse: z
      .union([z.string().regex(/^\d+$/, limitMessage).transform(Number), z.number({ error: limitMessage })], {
        error: limitMessage,
      })
      .pipe(z.number().int(limitMessage).min(1, limitMessage).max(MAX_LIMIT, limitMessage)),
  },
  from: {
    input: z.string({ error: dateMessage }).describe('Earliest local start date, YYYY-MM-DD'),
    parse: z.iso.date({ error: dateMessage }),
  },
  to: {
    input: z.string({ error: dateMessage }).describe('Latest local start date, YYYY-MM-DD'),
    parse: z.iso.date({ error: dateMessage }),
  },
  cursor: {
    input: z
      .string({ error: cursorMessage })
      .describe('Where the next page starts: the cursor of the previous page’s `next` link'),
    parse: z.string({ error: cursorMessage }).min(1, cursorMessage).max(16_384, cursorMessage),
  },
};

/** The plain fields of the event model that name a filter (catalogue/event.ts), each a list parameter of its own. */
const PLAIN_FILTERS = PLAIN_FIELD_NAMES.flatMap((field) => {
  const spec: PlainField = PLAIN_FIELDS[field];
  if (!spec.filter) return [];
  const values = spec.values as readonly string[];
  return [
    {
      field,
      param: spec.filter,
      input: listOf(values).describe(
        `${spec.description}: ${values.join(', ')}, comma-separated or a list (any of them)`,
      ),
      parse: list(spec.title.toLowerCase(), (v) => values.includes(v), values),
    },
  ];
});

type Grammar = typeof GRAMMAR;
type Param = { input: z.ZodType; parse: z.ZodType };
/** Every parameter of the grammar, the plain fields' filters included. */
const ALL_PARAMS: Record<string, Param> = {
  ...GRAMMAR,
  ...Object.fromEntries(PLAIN_FILTERS.map((f) => [f.param, f])),
};

/**
 * The parameters pages and the embed carry into their queries: every one of the grammar's but `cursor` (they show
 * one page). `lang` is the event-language filter there too; a page's own language is `hl`, outside the grammar.
 */
export const PAGE_PARAMETERS: readonly string[] = Object.keys(ALL_PARAMS).filter((p) => p !== 'cursor');

/** The grammar's parameters in the forms they are given: the input schema of the MCP search tools. */
export const searchInputShape = Object.fromEntries(
  Object.entries(ALL_PARAMS).map(([name, p]) => [name, p.input.optional()]),
) as { [K in keyof Grammar]: z.ZodOptional<Grammar[K]['input']> };

/** The grammar as it parses (HTTP query strings documented in OpenAPI from its input side). */
export const searchQuerySchema = z.object(
  Object.fromEntries(Object.entries(ALL_PARAMS).map(([name, p]) => [name, p.parse.optional()])) as {
    [K in keyof Grammar]: z.ZodOptional<Grammar[K]['parse']>;
  },
);

/** A parsed, validated query. Every output runs exactly this through the engine. */
export interface SearchParams {
  country: Scope;
  /** Whether `country` was given, or defaulted (where the person is may then pick the country). */
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
  /** `open`: only events whose call for papers is still open (by deadline when there is no prompt). */
  cfp: 'open' | undefined;
  limit: number;
  /** Local dates (inclusive) bounding the start of events. */
  from: string | undefined;
  to: string | undefined;
  /** Filters by plain fields of the event model: field → the values asked for (any of them). */
  plain: Partial<Record<PlainFieldName, string[]>>;
  /** Where the page starts (opaque; see cursor.ts); not part of the query a link reproduces. */
  cursor: string | undefined;
}

const LISTS: ReadonlySet<string> = new Set(['topic', 'seniority', ...PLAIN_FILTERS.map((f) => f.param)]);

/**
 * Validates a query — strings as from a URL, or the typed values of a tool call — or throws a 422 naming each bad
 * parameter. Parameters outside the grammar are ignored here (a route may take more, like `mine`).
 */
export function parseSearchParams(raw: Record<string, unknown>): SearchParams {
  // A repeated URL parameter arrives as an array; only lists take several values, the others take them joined.
  const given = Object.fromEntries(
    Object.entries(raw)
      .filter(([k, v]) => k in ALL_PARAMS && v !== undefined && v !== null)
      .map(([k, v]) => [k, Array.isArray(v) && !LISTS.has(k) ? v.join(',') : v]),
  );
  const parsed = searchQuerySchema.safeParse(given);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, given));
  const p = parsed.data;
  const country = p.country ?? 'ch';
  const near = p.near === true || p.near === '1' || p.near === 'true';
  const errors = [];
  let city: Place | undefined;
  if (p.city) {
    city = resolveCity(p.city, country === 'all' ? undefined : country);
    const where = country === 'all' ? 'ch, de or at' : country;
    if (!city) {
      errors.push({
        field: 'city',
        message: `"${p.city}" is not a known city in ${where}; give a city there in any common spelling (Zürich, Genf, München, Wien)`,
      });
    }
  }
  if (near && !p.city)
    errors.push({ field: 'near', message: `needs city: near=1 widens a city to about ${NEAR_RADIUS_KM} km` });
  if (p.from && p.to && p.to < p.from) {
    errors.push({ field: 'to', message: `must not be before from (${p.from})`, given: shownValue(p.to) });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const plain: SearchParams['plain'] = {};
  for (const { field, param } of PLAIN_FILTERS) {
    const values = (parsed.data as Record<string, string[] | undefined>)[param];
    if (values?.length) (plain as Record<string, string[]>)[field] = values;
  }
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
    cfp: p.cfp,
    limit: p.limit ?? DEFAULT_LIMIT,
    from: p.from,
    to: p.to,
    plain,
    cursor: p.cursor,
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
  if (params.cfp) search.set('cfp', params.cfp);
  if (params.from) search.set('from', params.from);
  if (params.to) search.set('to', params.to);
  for (const { field, param } of PLAIN_FILTERS) {
    const values = (params.plain as Record<string, string[] | undefined>)[field];
    if (values?.length) search.set(param, values.join(','));
  }
  if (params.limit !== DEFAULT_LIMIT) search.set('limit', String(params.limit));
  for (const [k, v] of Object.entries(extra)) search.set(k, v);
  return search.toString();
}
