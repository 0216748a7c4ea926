import { DateTime } from 'luxon';
import { z } from 'zod';
import { COUNTRIES } from '../places/countries.js';
import { type FieldError, shownValue, ValidationError } from './errors.js';
import {
  EVENT_FORMATS,
  PLAIN_FIELD_NAMES,
  type PlainFieldName,
  PRICE_TYPES,
  plainFieldSchema,
  REG_MODES,
  VISIBILITIES,
} from './event.js';
import { SENIORITIES, TOPIC_SLUGS } from './taxonomy.js';
import { isBlank, textProblem } from './text.js';

/** `YYYY-MM-DDTHH:MM:SS` with an optional fraction and a UTC offset (`+HH:MM` or `Z`). */
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A host's text under the one text policy (text.ts): what no output may carry is refused, never altered. */
const text = (max: number) =>
  z
    .string({ error: `must be text of at most ${max} characters` })
    .max(max, `must be at most ${max} characters`)
    .superRefine((s, ctx) => {
      const problem = textProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** Text that must show something: a title, a name. */
export const requiredText = (max: number) =>
  text(max).refine((s) => !isBlank(s), 'must not be empty (nor only spaces or invisible characters such as U+200B)');

/** An address a body gives (a calendar, a webhook target): its form is checked where it is used. */
export const urlField = () => z.string().trim().min(1, 'must not be empty').max(2000);

/** UTC offsets in use on Earth run from -12:00 to +14:00: anything beyond is a typo. */
const OFFSET_MINUTES = { '-': 12 * 60, '+': 14 * 60 } as const;

/** A date-time with an offset, or (for all-day events) a plain local date YYYY-MM-DD. */
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

const DATE_TIME_FORM = 'an ISO 8601 date-time with a UTC offset, e.g. 2026-12-03T18:30:00+01:00';

const offsetDateTime = z
  .string({ error: `must be ${DATE_TIME_FORM}, or with allDay a date YYYY-MM-DD` })
  .superRefine((s, ctx) => {
    if (PLAIN_DATE.test(s)) {
      if (!DateTime.fromISO(s).isValid) ctx.addIssue({ code: 'custom', message: 'is not a real date (YYYY-MM-DD)' });
      return;
    }
    const offset = OFFSET_DATE_TIME.exec(s)?.[2];
    if (offset === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be ${DATE_TIME_FORM}`,
      });
      return;
    }
    const [hours, minutes] = offset === 'Z' ? [0, 0] : offset.slice(1).split(':').map(Number);
    const sign = offset.startsWith('-') ? '-' : '+';
    if (minutes! >= 60 || hours! * 60 + minutes! > OFFSET_MINUTES[sign]) {
      ctx.addIssue({
        code: 'custom',
        message: `has an impossible UTC offset ${offset}: offsets run from -12:00 to +14:00`,
      });
    } else if (!DateTime.fromISO(s, { setZone: true }).isValid) {
      ctx.addIssue({ code: 'custom', message: `is not a real date and time: must be ${DATE_TIME_FORM}` });
    }
  });

const httpUrl = text(2048).refine((s) => {
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}, 'must be an absolute http(s) URL, e.g. https://example.org/event');

const twoDecimals = (n: number) => Number(n.toFixed(2)) === n;

/** Where a writer finds the topics: the API reference (its EventSubmission lists them) and the taxonomy page. */
const TOPICS_DOC = 'the list is at /docs (EventSubmission), described in docs/taxonomy.md';

/** A latitude or longitude as a JSON number in decimal degrees. */
const degrees = (bound: number, name: string, example: number) => {
  const message = `must be a ${name} in decimal degrees from -${bound} to ${bound} (a JSON number, e.g. ${example})`;
  return z.number({ error: message }).min(-bound, message).max(bound, message);
};

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Every plain field, optional on write (see PLAIN_FIELDS). */
const plainInputs = Object.fromEntries(
  PLAIN_FIELD_NAMES.map((name) => [name, plainFieldSchema(name).optional()]),
) as Record<PlainFieldName, z.ZodOptional<ReturnType<typeof plainFieldSchema>>>;

/** The body of POST /api/events that creates or updates an event (docs/contract.md, An event, as written; plus the documented extensions). */
export const eventSubmissionSchema = z
  .strictObject(
    {
      title: requiredText(300).describe(
        'Event name. Text fields refuse control characters other than tab and line breaks, and noncharacters; a required one must show something (not only spaces or zero-width characters).',
      ),
      startAt: offsetDateTime.describe(
        'Start, ISO 8601 with a UTC offset from -12:00 to +14:00: YYYY-MM-DDTHH:MM:SS+HH:MM (or Z); with allDay, a ' +
          'local date YYYY-MM-DD. Within the years 1970 to 9999, in UTC and in the event’s time zone.',
      ),
      endAt: offsetDateTime
        .optional()
        .describe('End, same shape as startAt; not before it. With allDay, the last day (inclusive).'),
      allDay: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe(
          'Extension. A whole-day event: startAt and endAt are read as local dates in the event’s country (no clock time is shown). ' +
            'A submission from local midnight to a later local midnight is all-day too.',
        ),
      city: requiredText(120).optional().describe('City name in any common spelling; omit for online events.'),
      venue: requiredText(300).optional().describe('Venue; omit for online events.'),
      format: enumOf(EVENT_FORMATS).default('in_person'),
      topics: z
        .array(
          z.enum(TOPIC_SLUGS, { error: `is not a topic slug; use one of ${TOPIC_SLUGS.join(', ')} — ${TOPICS_DOC}` }),
          {
            error: `must be a list of topic slugs, e.g. ["ai-ml"] — ${TOPICS_DOC}`,
          },
        )
        .max(12, 'must list at most 12 topics')
        .optional()
        .describe('Topic slugs (docs/taxonomy.md); inferred from title and description when omitted.'),
      regMode: enumOf(REG_MODES).default('open'),
      capacity: z
        .number({ error: 'must be a whole number of places (a JSON number, e.g. 80)' })
        .int('must be a whole number of places')
        .positive('must be at least 1')
        .max(10_000_000, 'must be at most 10000000')
        .optional(),
      price: enumOf(PRICE_TYPES).default('unknown'),
      priceAmount: z
        .number({ error: 'must be an amount as a JSON number, e.g. 25 or 19.90' })
        .nonnegative('must not be negative')
        .max(1_000_000_000, 'is too large')
        .refine(twoDecimals, 'must have at most 2 decimal places')
        .optional()
        .describe('Only with price = paid; in the currency of the event country (CHF for ch, EUR for de and at).'),
      url: httpUrl.optional().describe("The host's own event or registration link; becomes sourceUrl."),
      visibility: enumOf(VISIBILITIES).default('public'),
      externalId: requiredText(200).optional().describe("The host's own stable id; re-sending it updates the event."),
      // Extensions beyond the contract's written fields (documented in docs/api.md and OpenAPI).
      country: enumOf(COUNTRIES).optional().describe('Extension. Else derived from city, else the key home country.'),
      organizer: requiredText(200).optional().describe("Extension. Default: the key's host name."),
      description: text(20_000).optional().describe('Extension. Plain text for pages and search.'),
      seniority: z
        .array(enumOf(SENIORITIES), { error: `must be a list of ${SENIORITIES.join(', ')}, e.g. ["senior"]` })
        .max(5, 'must list at most 5 levels')
        .optional()
        .describe('Extension. Audience seniority.'),
      lat: degrees(90, 'latitude', 47.37)
        .optional()
        .describe('Extension. With lng: the exact point, inside the country.'),
      lng: degrees(180, 'longitude', 8.54).optional().describe('Extension. With lat.'),
      cfpUrl: httpUrl.optional().describe('Extension. Where speakers submit talks (the call for papers).'),
      cfpUntil: offsetDateTime
        .optional()
        .describe(
          'Extension. The call for papers’ deadline: a local date YYYY-MM-DD (the whole day counts) or a date-time with offset.',
        ),
      ...plainInputs,
    },
    { error: 'must be a JSON object of event fields (title, startAt, …)' },
  )
  .superRefine((s, ctx) => {
    for (const field of ['startAt', 'endAt'] as const) {
      if (!s.allDay && s[field] !== undefined && PLAIN_DATE.test(s[field])) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'a plain date needs allDay: true; else give a time and offset',
        });
      }
    }
    // All-day ranges are checked as local dates once the event's country is known (see resolveSubmission).
    if (s.endAt && s.startAt && !s.allDay && DateTime.fromISO(s.endAt) < DateTime.fromISO(s.startAt)) {
      ctx.addIssue({ code: 'custom', path: ['endAt'], message: `must not be before startAt (${s.startAt})` });
    }
    if (s.priceAmount !== undefined && s.price !== 'paid') {
      ctx.addIssue({ code: 'custom', path: ['priceAmount'], message: 'is only allowed with price = paid' });
    }
    if ((s.lat === undefined) !== (s.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: [s.lat === undefined ? 'lat' : 'lng'], message: 'lat and lng go together' });
    }
  });

export type EventSubmission = z.output<typeof eventSubmissionSchema>;

const target = z.strictObject({
  externalId: requiredText(200).optional(),
  id: requiredText(200).optional(),
  country: enumOf(COUNTRIES).optional(),
});

/** `{action: cancel|restore, externalId}` (or `id` + `country`) posted to /api/events by clients without DELETE. */
export const eventActionSchema = target.extend({ action: enumOf(['cancel', 'restore'] as const) });
export type EventAction = z.output<typeof eventActionSchema>;

/** Query of DELETE /api/events. */
export const cancelQuerySchema = target;
export type EventTarget = z.output<typeof target>;

const foldKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** An unknown field, with the known one it likely means (`start_at`, `StartAt` → startAt) when there is one. */
function unknownFieldMessage(key: string, known: readonly string[]): string {
  const meant = known.find((k) => foldKey(k) === foldKey(key));
  return meant ? `is not a known field; did you mean ${meant}?` : 'is not a known field';
}

/** The value at `path` of what was parsed, own properties only. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Every issue of `error` as `{field, message, given}`: the field's dotted path (`topics[0]`), what it accepts (the
 * schema's own message) and the value `input` (what was parsed) holds there, quoted and cut short.
 */
export function fieldErrors(
  error: z.ZodError,
  input: unknown,
  prefix = '',
  known: readonly string[] = [],
): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: prefix + key, message: unknownFieldMessage(key, known) }));
    }
    const field = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '[');
    const given = valueAt(input, issue.path);
    const missing = given === undefined && issue.path.length > 0;
    if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) {
      return [{ field: prefix + field, message: `is required (${issue.message})` }];
    }
    // A custom issue that quotes the values it refuses (a list's unknown entries) needs no echo of the whole.
    const quoted = issue.code === 'custom' && (issue.params as { quoted?: boolean } | undefined)?.quoted;
    return [
      {
        field: prefix + field || '(body)',
        message: issue.message,
        ...(given !== undefined && !quoted ? { given: shownValue(given) } : {}),
      },
    ];
  });
}

/** Parses `input` with `schema` or throws a ValidationError listing every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const known = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
    throw new ValidationError(fieldErrors(result.error, input ?? null, prefix, known));
  }
  return result.data;
}
