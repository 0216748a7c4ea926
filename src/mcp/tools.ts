import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fieldErrorLine, ServiceError, ValidationError } from '../catalogue/errors.js';
import { parseOrThrow } from '../catalogue/submission.js';
import { SENIORITIES } from '../catalogue/taxonomy.js';
import type { ServingContext } from '../context.js';
import { COUNTRIES } from '../places/countries.js';
import { parseSearchParams, searchInputShape, toQueryString } from '../query/params.js';
import type { SearchResult } from '../query/read-index.js';
import { toCoverageView } from '../render/coverage.js';
import { eventDetailSchema, eventPageUrl, eventViewSchema, toEventDetail, toEventView } from '../render/event-json.js';
import { inEnglish } from '../render/phrase.js';
import { constraintText, describeQuery } from '../render/restate.js';
import { rsvpText, toRsvpView } from '../render/rsvp-json.js';
import { followText, searchResponseSchema, toAlternativeView, toSearchResponse } from '../render/search-json.js';
import { formatWhen, whereOf } from '../render/when.js';
import { answerCoverage } from '../use-cases/coverage.js';
import { getEvent, type SearchPage, searchEvents } from '../use-cases/read-events.js';
import { rsvp, rsvpSchema } from '../use-cases/rsvp.js';
import { withPublishedInputs } from './arguments.js';
import { type McpCaller, registrationOutput } from './caller.js';

/** Who the person is, for best_next_event. */
const AUDIENCES = ['founders', ...SENIORITIES] as const;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/*
 * Tool definitions, built once at load. The schemas are whole `z.object`s rather than raw shapes: the SDK wraps a raw
 * shape in a new object schema at every registration, and zod caches its per-schema work on the schema instance, so
 * one shared instance serves every pooled server. Every search tool takes exactly the grammar of GET /api/events.
 */
const GRAMMAR_INPUT = z.object(searchInputShape);
const LIST_OUTPUT = searchResponseSchema.pick({
  understood: true,
  total: true,
  count: true,
  calendar: true,
  feed: true,
  events: true,
  alternatives: true,
  widen: true,
  coverage: true,
});

export const TOOLS = {
  search_events: {
    title: 'Search tech events',
    description:
      'Ranked search over upcoming tech events in Switzerland, Germany and Austria from a free-text wish `q` in English, German, French or Italian ' +
      '("AI meetups in Zürich for founders next week"), optionally with the hard filters of GET /api/events. Use it when the user describes what they want in words. ' +
      'Returns events with the reasons each matched and a sentence saying how the wish was understood: every event listed is what that sentence says. ' +
      'When fewer match than asked for, `alternatives` holds near misses apart, each missing one thing asked (`differs` says what) — offer them as such, never as matches.',
    inputSchema: GRAMMAR_INPUT,
    outputSchema: LIST_OUTPUT,
    annotations: { title: 'Search tech events', ...READ_ONLY },
  },
  find_events: {
    title: 'Find events by filters',
    description:
      'Lists upcoming events matching structured filters (country, city, near, topic, seniority, format, org, who, from/to), in chronological order; ' +
      'the same parameters as GET /api/events. Use it for exact questions like "all security events in Munich in May"; use search_events for free text.',
    inputSchema: GRAMMAR_INPUT,
    outputSchema: LIST_OUTPUT,
    annotations: { title: 'Find events by filters', ...READ_ONLY },
  },
  best_next_event: {
    title: 'Best next event for a person',
    description:
      "Picks the single best upcoming event for a person's wishes (`q`, and any filter of GET /api/events) and says why it wins, " +
      'with two runners-up. Use it when the user asks "what should I go to?". Without arguments: the next event worth going to. ' +
      'Say in `q` where the person lives or is ("I live in Munich", "j\'habite à Genève"): nearer events win among those that fit, ' +
      'without ruling out a conference worth the trip; "events in Munich" asks for that place instead.',
    inputSchema: GRAMMAR_INPUT.extend({
      wishes: z
        .string({ error: 'must be free text, at most 500 characters (the same as q)' })
        .max(500, 'must be free text, at most 500 characters (the same as q)')
        .optional()
        .describe('Same as q (kept for older clients)'),
      audience: z
        .enum(AUDIENCES, { error: `must be one of ${AUDIENCES.join(', ')}` })
        .optional()
        .describe('Who the person is'),
    }),
    outputSchema: z.object({
      understood: z.string(),
      best: eventViewSchema.nullable(),
      runnersUp: z.array(eventViewSchema),
      total: z.number().int(),
      alternatives: searchResponseSchema.shape.alternatives,
      coverage: searchResponseSchema.shape.coverage,
    }),
    annotations: { title: 'Best next event', ...READ_ONLY },
  },
  get_event: {
    title: 'Get one event',
    description:
      'The full record of one event by its id and country, or by its page URL: details, page, calendar file, whether it is cancelled.',
    inputSchema: z.object({
      id: z
        .string({ error: "must be an event's id (its slug, as search_events gives it), at most 200 characters" })
        .max(200, "must be an event's id (its slug), at most 200 characters")
        .optional()
        .describe('Event id (slug)'),
      country: z.enum(COUNTRIES, { error: `must be one of ${COUNTRIES.join(', ')}` }).optional(),
      url: z
        .string({ error: 'must be an event page URL, e.g. https://…/ch/events/<id>' })
        .max(500, 'must be an event page URL, at most 500 characters')
        .optional()
        .describe('The event page URL, e.g. https://…/ch/events/<id>'),
    }),
    outputSchema: z.object({
      event: eventDetailSchema,
      page: z.string(),
      calendar: z.string(),
      cancelled: z.boolean(),
    }),
    annotations: { title: 'Get one event', ...READ_ONLY },
  },
  subscribe_calendar: {
    title: 'Calendar subscription for a query',
    description:
      'Turns a query (the parameters of GET /api/events) into a live calendar subscription (https and webcal), an Atom feed of what is new, and a markdown table URL. ' +
      'New matching events appear in the calendar by themselves; cancelled ones disappear. The feed shows new matches first and cancellations as updates.',
    inputSchema: GRAMMAR_INPUT,
    outputSchema: z.object({
      https: z.string(),
      webcal: z.string(),
      feed: z.string(),
      markdown: z.string(),
      json: z.string(),
      howTo: z.string(),
    }),
    annotations: { title: 'Calendar subscription', ...READ_ONLY },
  },
  rsvp: {
    title: 'RSVP to an event',
    description:
      'Registers (or withdraws) the caller for an event: the person who connected this client with OAuth (an attendee), or the host key sent as `Authorization: Bearer <key>` on the MCP HTTP request. Honours the event: ' +
      'open → registered (waitlisted when full), waitlist → waitlisted, invite → requested (pending the host, who may decline). ' +
      'Only events run here take RSVPs: for an imported event it answers that registration is at its source, with the link. Idempotent.',
    inputSchema: rsvpSchema,
    outputSchema: z.object(registrationOutput),
    annotations: {
      title: 'RSVP',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
} as const;

export type ToolName = keyof typeof TOOLS;

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Maps a ServiceError once for the MCP transport: an `isError` tool result the assistant can read and act on. */
function asToolError(error: unknown): CallToolResult {
  if (error instanceof ValidationError) {
    return toolError(
      `Invalid arguments — ${error.errors.map(fieldErrorLine).join('; ')}. Call the tool again with these corrected.`,
    );
  }
  if (error instanceof ServiceError && error.code === 'event-not-found')
    return toolError(`${error.message} Use search_events to find events and their ids.`);
  if (error instanceof ServiceError) return toolError(error.message);
  throw error;
}

/**
 * The tool's handler behind its own validation: the arguments are parsed with the tool's input schema here, so a bad
 * one is a tool error worded like every other (which argument, what was given, what it accepts), and any coded error
 * of the handler becomes a tool error too.
 */
const guarded =
  <T extends ToolName>(name: T, handler: Handler<T>) =>
  async (raw: Record<string, unknown>, extra: unknown): Promise<CallToolResult> => {
    try {
      return await handler(parseOrThrow(TOOLS[name].inputSchema as z.ZodType, raw) as ArgsOf<T>, extra);
    } catch (error) {
      return asToolError(error);
    }
  };

/** Each tool's definition as registered: its input schema published whole, the arguments validated by `guarded`. */
const REGISTERED: Record<
  ToolName,
  Omit<(typeof TOOLS)[ToolName], 'inputSchema' | 'outputSchema'> & {
    inputSchema: z.ZodObject;
    outputSchema: z.ZodObject;
  }
> = withPublishedInputs(TOOLS);

function listText(result: SearchResult, baseUrl: string, coverage?: string): string {
  const lines = [`${describeQuery(result.restatement)} — ${result.total} match${result.total === 1 ? '' : 'es'}.`];
  result.events.forEach(({ event: e, reasons }, i) => {
    lines.push(
      `${i + 1}. ${e.title} — ${formatWhen(e)} — ${whereOf(e)} — ${e.organizer}\n   ${eventPageUrl(baseUrl, e)}\n   Why: ${inEnglish(reasons).join('; ')}`,
    );
  });
  lines.push(...apartText(result, baseUrl, coverage));
  return lines.join('\n');
}

/**
 * What an answer says beside its matches: nothing matches (and what would widen it), the near misses apart, and why
 * the catalogue may be thin here (its coverage: then the prompt is not told to ask for less).
 */
function apartText(result: SearchResult, baseUrl: string, coverage?: string): string[] {
  const lines: string[] = [];
  const widen = (result.widen ?? []).map(
    (w) =>
      `without “${constraintText(result, w.constraint)}”: ${w.total}${followText(w, result, baseUrl, '/api/events')}`,
  );
  if (result.total === 0) {
    lines.push(
      widen.length
        ? `No event matches all of this. Dropping one thing would find more — ${widen.join('; ')}.`
        : `No event matches all of this, and none misses only one thing${coverage ? '.' : ': ask for less.'}`,
    );
  } else if (widen.length) lines.push(`Other countries hold more — ${widen.join('; ')}.`);
  if (coverage) lines.push(`The catalogue may be thin here (in structured content as \`coverage\`): ${coverage}`);
  if (result.alternatives?.length) {
    lines.push(`Near misses — not matches, each misses one thing asked (in structured content as \`alternatives\`):`);
    result.alternatives.forEach(({ event: e, differs }, i) => {
      lines.push(
        `${i + 1}. ${e.title} — ${formatWhen(e)} — ${whereOf(e)} — differs: ${differs}\n   ${eventPageUrl(baseUrl, e)}`,
      );
    });
  }
  return lines;
}

/** The id and country named by a tool call: given, or read off an event page URL. */
function eventTarget(a: { id?: string | undefined; country?: string | undefined; url?: string | undefined }) {
  if (a.id) return { id: a.id, country: a.country };
  const match = a.url ? /\/(ch|de|at)\/events\/([^/?#]+)/.exec(a.url) : null;
  if (!match) throw new ServiceError('bad-request', 'Give the event id (with its country), or the event page URL.');
  try {
    return { id: decodeURIComponent(match[2]!), country: match[1] };
  } catch {
    throw new ServiceError('event-not-found', 'That is not an event page URL. Use search_events to find events.');
  }
}

type ArgsOf<T extends ToolName> = z.output<(typeof TOOLS)[T]['inputSchema']>;
type Handler<T extends ToolName> = (args: ArgsOf<T>, extra: unknown) => CallToolResult | Promise<CallToolResult>;

/** Registers the six tools on a server; every tool calls the same use cases as the HTTP routes. */
export function registerTools(server: McpServer, ctx: ServingContext, callerOf: (extra: unknown) => McpCaller): void {
  const handlers: { [T in ToolName]: Handler<T> } = {
    search_events: async (args) => listResult(ctx, await searchEvents(ctx, args)),
    find_events: async (args) => listResult(ctx, await searchEvents(ctx, args)),
    best_next_event: (args) => bestNextEvent(ctx, args),
    get_event: (args) => oneEvent(ctx, args),
    subscribe_calendar: (args) => subscription(ctx.config.baseUrl, args),
    rsvp: (args, extra) => rsvpOf(ctx, callerOf(extra), args),
  };
  for (const name of Object.keys(TOOLS) as ToolName[]) {
    server.registerTool(name, REGISTERED[name], guarded(name, handlers[name] as Handler<ToolName>));
  }
}

async function listResult(ctx: ServingContext, result: SearchPage): Promise<CallToolResult> {
  const baseUrl = ctx.config.baseUrl;
  const { query: _, ...structured } = toSearchResponse(result, baseUrl, await answerCoverage(ctx, result));
  const more = result.nextCursor ? `\nMore: call again with cursor "${result.nextCursor}".` : '';
  return {
    content: [{ type: 'text', text: `${listText(result, baseUrl, structured.coverage?.message)}${more}` }],
    structuredContent: { ...structured, ...(result.nextCursor ? { cursor: result.nextCursor } : {}) },
  };
}

/** The top three for the wishes: the best with its reasons, two runners-up, and near misses apart. */
async function bestNextEvent(
  ctx: ServingContext,
  { wishes, audience, ...query }: ArgsOf<'best_next_event'>,
): Promise<CallToolResult> {
  const baseUrl = ctx.config.baseUrl;
  const q = [query.q ?? wishes, audience && audience !== 'founders' ? `for ${audience}` : ''].join(' ').trim();
  const asked = { ...query, q, limit: 3, ...(audience === 'founders' ? { who: 'founders' } : {}) };
  const result = await searchEvents(ctx, asked);
  const [best, ...rest] = result.events.map((r) => toEventView(r.event, baseUrl, inEnglish(r.reasons)));
  const text = best
    ? `Best: ${best.title} (${best.url}) — because ${best.matchReasons.join('; ')}.${rest.length ? ` Runners-up: ${rest.map((e) => e.title).join(', ')}.` : ''}`
    : `Nothing upcoming matches${q ? ` “${q}”` : ''}.`;
  const alternatives = result.alternatives?.map((a) => toAlternativeView(a, baseUrl));
  const found = await answerCoverage(ctx, result);
  const coverage = found && toCoverageView(found, baseUrl);
  const understood = describeQuery(result.restatement);
  return {
    content: [
      { type: 'text', text: [`${understood}. ${text}`, ...apartText(result, baseUrl, coverage?.message)].join('\n') },
    ],
    structuredContent: {
      understood,
      best: best ?? null,
      runnersUp: rest,
      total: result.total,
      ...(alternatives ? { alternatives } : {}),
      ...(coverage ? { coverage } : {}),
    },
  };
}

async function oneEvent(ctx: ServingContext, args: ArgsOf<'get_event'>): Promise<CallToolResult> {
  const { event, cancelled } = await getEvent(ctx, eventTarget(args));
  const page = eventPageUrl(ctx.config.baseUrl, event);
  const text = `${cancelled ? 'CANCELLED — ' : ''}${event.title}\n${formatWhen(event)} · ${whereOf(event)} · ${event.organizer}\nPage: ${page}\nTickets: ${event.sourceUrl ?? event.url ?? page}`;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { event: toEventDetail(event, ctx.config.baseUrl), page, calendar: `${page}.ics`, cancelled },
  };
}

function subscription(baseUrl: string, args: ArgsOf<'subscribe_calendar'>): CallToolResult {
  const qs = toQueryString(parseSearchParams(args));
  const https = `${baseUrl}/api/calendar?${qs}`;
  const webcal = https.replace(/^https?:/, 'webcal:');
  const howTo =
    'Open the webcal link on a phone or Mac, or paste the https link into Google Calendar under “Other calendars → From URL”.';
  const markdown = `${baseUrl}/api/md?${qs}`;
  const feed = `${baseUrl}/api/feed?${qs}`;
  return {
    content: [
      {
        type: 'text',
        text: `Subscribe: ${webcal}\n(or ${https})\nAtom feed of what is new: ${feed}\nMarkdown: ${markdown}\n${howTo}`,
      },
    ],
    structuredContent: { https, webcal, feed, markdown, json: `${baseUrl}/api/events?${qs}`, howTo },
  };
}

/** RSVPs need a caller: a host key, or an attendee's OAuth access token, sent on the MCP HTTP request. */
async function rsvpOf(ctx: ServingContext, caller: McpCaller, args: ArgsOf<'rsvp'>): Promise<CallToolResult> {
  if (!caller.holder) return toolError(caller.problem);
  const r = await rsvp(ctx, caller.holder, args);
  return {
    content: [{ type: 'text', text: rsvpText(r) }],
    structuredContent: toRsvpView(r, ctx.config.baseUrl),
  };
}
