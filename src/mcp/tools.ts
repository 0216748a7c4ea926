import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { SENIORITIES } from '../catalogue/taxonomy.js';
import type { ServingContext } from '../context.js';
import { COUNTRIES } from '../places/countries.js';
import { parseSearchParams, searchInputShape, toQueryString } from '../query/params.js';
import type { SearchResult } from '../query/read-index.js';
import { eventDetailSchema, eventPageUrl, eventViewSchema, toEventDetail, toEventView } from '../render/event-json.js';
import { followText, searchResponseSchema, toAlternativeView, toSearchResponse } from '../render/search-json.js';
import { formatWhen, whereOf } from '../render/when.js';
import { getEvent, type SearchPage, searchEvents } from '../use-cases/read-events.js';
import { rsvp, rsvpSchema } from '../use-cases/rsvp.js';
import { type McpCaller, registrationOutput } from './caller.js';

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
      wishes: z.string().max(500).optional().describe('Same as q (kept for older clients)'),
      audience: z
        .enum(['founders', ...SENIORITIES])
        .optional()
        .describe('Who the person is'),
    }),
    outputSchema: z.object({
      understood: z.string(),
      best: eventViewSchema.nullable(),
      runnersUp: z.array(eventViewSchema),
      total: z.number().int(),
      alternatives: searchResponseSchema.shape.alternatives,
    }),
    annotations: { title: 'Best next event', ...READ_ONLY },
  },
  get_event: {
    title: 'Get one event',
    description:
      'The full record of one event by its id and country, or by its page URL: details, page, calendar file, whether it is cancelled.',
    inputSchema: z.object({
      id: z.string().max(200).optional().describe('Event id (slug)'),
      country: z.enum(COUNTRIES).optional(),
      url: z.string().max(500).optional().describe('The event page URL, e.g. https://…/ch/events/<id>'),
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
      'Registers (or withdraws) the host key sent as `Authorization: Bearer <key>` on the MCP HTTP request for an event. Honours the event: ' +
      'open → registered (waitlisted when full), waitlist → waitlisted, invite → requested (pending the host). Idempotent.',
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
    return toolError(`Invalid arguments: ${error.errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`);
  }
  if (error instanceof ServiceError && error.code === 'event-not-found')
    return toolError(`${error.message} Use search_events to find events and their ids.`);
  if (error instanceof ServiceError) return toolError(error.message);
  throw error;
}

/** A handler whose coded errors become tool errors. */
const guarded =
  <A, E>(handler: (args: A, extra: E) => CallToolResult | Promise<CallToolResult>) =>
  async (args: A, extra: E): Promise<CallToolResult> => {
    try {
      return await handler(args, extra);
    } catch (error) {
      return asToolError(error);
    }
  };

/** The caller of a tool, gone once it cancels the call or its connection closes. */
const askerOf = (extra: { signal: AbortSignal }) => ({ gone: () => extra.signal.aborted });

function listText(result: SearchResult, baseUrl: string): string {
  const lines = [`${result.understood} — ${result.total} match${result.total === 1 ? '' : 'es'}.`];
  result.events.forEach(({ event: e, reasons }, i) => {
    lines.push(
      `${i + 1}. ${e.title} — ${formatWhen(e)} — ${whereOf(e)} — ${e.organizer}\n   ${eventPageUrl(baseUrl, e)}\n   Why: ${reasons.join('; ')}`,
    );
  });
  lines.push(...apartText(result, baseUrl));
  return lines.join('\n');
}

/** What an answer says beside its matches: nothing matches (and what would widen it), and the near misses apart. */
function apartText(result: SearchResult, baseUrl: string): string[] {
  const lines: string[] = [];
  const widen = (result.widen ?? []).map(
    (w) => `without “${w.without}”: ${w.total}${followText(w, result, baseUrl, '/api/events')}`,
  );
  if (result.total === 0) {
    lines.push(
      widen.length
        ? `No event matches all of this. Dropping one thing would find more — ${widen.join('; ')}.`
        : 'No event matches all of this, and none misses only one thing: ask for less.',
    );
  } else if (widen.length) lines.push(`Other countries hold more — ${widen.join('; ')}.`);
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
type Asker = ReturnType<typeof askerOf>;

/** Registers the six tools on a server; every tool calls the same use cases as the HTTP routes. */
export function registerTools(server: McpServer, ctx: ServingContext, callerOf: (extra: unknown) => McpCaller): void {
  const baseUrl = ctx.config.baseUrl;
  server.registerTool(
    'search_events',
    TOOLS.search_events,
    guarded(async (args, extra) => listResult(await searchEvents(ctx, args, askerOf(extra)), baseUrl)),
  );
  server.registerTool(
    'find_events',
    TOOLS.find_events,
    guarded(async (args, extra) => listResult(await searchEvents(ctx, args, askerOf(extra)), baseUrl)),
  );
  server.registerTool(
    'best_next_event',
    TOOLS.best_next_event,
    guarded((args, extra) => bestNextEvent(ctx, args, askerOf(extra))),
  );
  server.registerTool(
    'get_event',
    TOOLS.get_event,
    guarded((args) => oneEvent(ctx, args)),
  );
  server.registerTool(
    'subscribe_calendar',
    TOOLS.subscribe_calendar,
    guarded((args) => subscription(baseUrl, args)),
  );
  server.registerTool(
    'rsvp',
    TOOLS.rsvp,
    guarded((args, extra) => rsvpOf(ctx, callerOf(extra), args)),
  );
}

function listResult(result: SearchPage, baseUrl: string): CallToolResult {
  const { query: _, ...structured } = toSearchResponse(result, baseUrl);
  const more = result.nextCursor ? `\nMore: call again with cursor "${result.nextCursor}".` : '';
  return {
    content: [{ type: 'text', text: `${listText(result, baseUrl)}${more}` }],
    structuredContent: { ...structured, ...(result.nextCursor ? { cursor: result.nextCursor } : {}) },
  };
}

/** The top three for the wishes: the best with its reasons, two runners-up, and near misses apart. */
async function bestNextEvent(
  ctx: ServingContext,
  { wishes, audience, ...query }: ArgsOf<'best_next_event'>,
  asker: Asker,
): Promise<CallToolResult> {
  const baseUrl = ctx.config.baseUrl;
  const q = [query.q ?? wishes, audience && audience !== 'founders' ? `for ${audience}` : ''].join(' ').trim();
  const asked = { ...query, q, limit: 3, ...(audience === 'founders' ? { who: 'founders' } : {}) };
  const result = await searchEvents(ctx, asked, asker);
  const [best, ...rest] = result.events.map((r) => toEventView(r.event, baseUrl, r.reasons));
  const text = best
    ? `Best: ${best.title} (${best.url}) — because ${best.matchReasons.join('; ')}.${rest.length ? ` Runners-up: ${rest.map((e) => e.title).join(', ')}.` : ''}`
    : `Nothing upcoming matches${q ? ` “${q}”` : ''}.`;
  const alternatives = result.alternatives?.map((a) => toAlternativeView(a, baseUrl));
  return {
    content: [{ type: 'text', text: [`${result.understood}. ${text}`, ...apartText(result, baseUrl)].join('\n') }],
    structuredContent: {
      understood: result.understood,
      best: best ?? null,
      runnersUp: rest,
      total: result.total,
      ...(alternatives ? { alternatives } : {}),
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

/** RSVPs need the caller's host key, sent on the MCP HTTP request. */
async function rsvpOf(ctx: ServingContext, caller: McpCaller, args: ArgsOf<'rsvp'>): Promise<CallToolResult> {
  if (!caller.key) return toolError(caller.problem);
  const r = await rsvp(ctx, caller.key, args);
  const place = r.waitlistPlace ? ` (place ${r.waitlistPlace} on the waitlist)` : '';
  return {
    content: [
      {
        type: 'text',
        text: `${r.event.title}: ${r.registration.status}${place}${r.changed ? '' : ' — unchanged'}.`,
      },
    ],
    structuredContent: {
      eventId: r.event.id,
      eventTitle: r.event.title,
      eventUrl: eventPageUrl(ctx.config.baseUrl, r.event),
      status: r.registration.status,
      waitlistPlace: r.waitlistPlace,
      changed: r.changed,
      registeredAt: r.registration.createdAt.toISOString(),
      updatedAt: r.registration.updatedAt.toISOString(),
      counts: r.counts,
    },
  };
}
