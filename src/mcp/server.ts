import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { COUNTRIES } from '../catalogue/countries.js';
import { ServiceError, ValidationError } from '../catalogue/errors.js';
import { rsvp } from '../catalogue/rsvp.js';
import { SENIORITIES } from '../catalogue/taxonomy.js';
import type { AppContext } from '../context.js';
import { type SearchResult, search } from '../query/engine.js';
import { parseSearchParams, toQueryString } from '../query/params.js';
import { eventPageUrl, toEventView } from '../render/event-json.js';
import { toSearchResponse } from '../render/search-json.js';
import { formatWhen, whereOf } from '../render/when.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import {
  dateRangeInput,
  eventOutput,
  filterInput,
  listOutput,
  registrationOutput,
  subscriptionOutput,
} from './schemas.js';

export const MCP_TOOL_NAMES = [
  'search_events',
  'find_events',
  'best_next_event',
  'get_event',
  'subscribe_calendar',
  'rsvp',
] as const;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/*
 * Tool definitions, built once at load. The schemas are whole `z.object`s rather than raw shapes: the SDK wraps a raw
 * shape in a new object schema at every registration, and zod caches its per-schema work (shape normalisation,
 * recursion checks, compiled parsers) on the schema instance, so one shared instance serves every pooled server.
 */
const LIST_OUTPUT = z.object(listOutput);

const SEARCH_EVENTS_TOOL = {
  title: 'Search tech events',
  description:
    'Ranked search over upcoming tech events in Switzerland, Germany and Austria from a free-text wish in English, German, French or Italian ' +
    '("AI meetups in Zürich for founders next week"), optionally with hard filters. Use it when the user describes what they want in words. ' +
    'Returns events with the reasons each matched and a sentence saying how the wish was understood.',
  inputSchema: z.object({ q: z.string().max(500).describe('The wish in plain words'), ...filterInput }),
  outputSchema: LIST_OUTPUT,
  annotations: { title: 'Search tech events', ...READ_ONLY },
};

const FIND_EVENTS_TOOL = {
  title: 'Find events by filters',
  description:
    'Lists upcoming events matching structured filters only (country, city, near, topic, seniority, format, organizer, date range, audience), ' +
    'in chronological order. Use it for exact questions like "all security events in Munich in May"; use search_events for free text.',
  inputSchema: z.object({ ...filterInput, ...dateRangeInput }),
  outputSchema: LIST_OUTPUT,
  annotations: { title: 'Find events by filters', ...READ_ONLY },
};

const BEST_NEXT_EVENT_TOOL = {
  title: 'Best next event for a person',
  description:
    "Picks the single best upcoming event for a person's wishes (free text, city, date window, audience) and says why it wins, " +
    'with two runners-up. Use it when the user asks "what should I go to?".',
  inputSchema: z.object({
    wishes: z.string().max(500).describe('What the person wants, in plain words'),
    country: filterInput.country,
    city: filterInput.city,
    near: filterInput.near,
    ...dateRangeInput,
    audience: z
      .enum(['founders', ...SENIORITIES])
      .optional()
      .describe('Who the person is'),
  }),
  outputSchema: z.object({
    understood: z.string(),
    best: eventOutput.nullable(),
    runnersUp: z.array(eventOutput),
    total: z.number().int(),
  }),
  annotations: { title: 'Best next event', ...READ_ONLY },
};

const GET_EVENT_TOOL = {
  title: 'Get one event',
  description:
    'The full record of one event by its id and country, or by its page URL: details, page, calendar file, whether it is cancelled.',
  inputSchema: z.object({
    id: z.string().max(200).optional().describe('Event id (slug)'),
    country: z.enum(COUNTRIES).optional(),
    url: z.string().max(500).optional().describe('The event page URL, e.g. https://…/ch/events/<id>'),
  }),
  outputSchema: z.object({
    event: eventOutput.extend({
      lifecycle: z.string(),
      end: z.string().nullable(),
      allDay: z.boolean(),
      description: z.string().nullable(),
    }),
    page: z.string(),
    calendar: z.string(),
    cancelled: z.boolean(),
  }),
  annotations: { title: 'Get one event', ...READ_ONLY },
};

const SUBSCRIBE_CALENDAR_TOOL = {
  title: 'Calendar subscription for a query',
  description:
    'Turns a query (free text and/or filters) into a live calendar subscription (https and webcal) and a markdown table URL. ' +
    'New matching events appear in the calendar by themselves; cancelled ones disappear.',
  inputSchema: z.object({ q: z.string().max(500).optional(), ...filterInput }),
  outputSchema: z.object(subscriptionOutput),
  annotations: { title: 'Calendar subscription', ...READ_ONLY },
};

const RSVP_TOOL = {
  title: 'RSVP to an event',
  description:
    'Registers (or withdraws) the host key sent as `Authorization: Bearer <key>` on the MCP HTTP request for an event. Honours the event: ' +
    'open → registered (waitlisted when full), waitlist → waitlisted, invite → requested (pending the host). Idempotent.',
  inputSchema: z.object({
    id: z.string().max(200).describe('Event id'),
    country: z.enum(COUNTRIES).optional(),
    action: z.enum(['register', 'withdraw']).default('register'),
  }),
  outputSchema: z.object(registrationOutput),
  annotations: {
    title: 'RSVP',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

/** Who calls: the host key sent as `Authorization: Bearer` on the HTTP request, if any and valid. */
export interface McpCaller {
  key: ApiKeyRecord | undefined;
  /** Why there is no key: none was sent, or the one sent is unknown/revoked. */
  keyProblem: 'missing' | 'invalid' | undefined;
}

const ANONYMOUS: McpCaller = { key: undefined, keyProblem: 'missing' };

/**
 * The caller as the SDK carries it to a tool handler: the HTTP transport reads `auth` off the request given to
 * `handleRequest` and hands it to the handler as `extra.authInfo`. Servers are pooled and shared by requests in turn,
 * so the caller must travel with the request, never in a closure of the server.
 */
export function callerAuthInfo(caller: McpCaller, token: string | undefined): AuthInfo {
  return { token: token ?? '', clientId: caller.key?.id ?? '', scopes: [], extra: { caller } };
}

function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  return (authInfo?.extra?.caller as McpCaller | undefined) ?? ANONYMOUS;
}

/** Ids are slugs: not empty, no control characters (PostgreSQL text refuses NUL), well-formed Unicode. */
function isPlausibleId(id: string): boolean {
  return id.length > 0 && id.length <= 200 && !/\p{Cc}/u.test(id) && id.isWellFormed();
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Maps a ServiceError once for the MCP transport: an `isError` tool result the assistant can read and act on. */
function asToolError(error: unknown): CallToolResult {
  if (error instanceof ValidationError) {
    return toolError(`Invalid arguments: ${error.errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`);
  }
  if (error instanceof ServiceError) return toolError(error.message);
  throw error;
}

type Args = Record<string, unknown>;

/** Tool arguments → the URL-style parameters of the shared grammar. */
function toRawQuery(args: Args, q?: string): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null || key === 'wishes' || key === 'audience') continue;
    raw[key] = Array.isArray(value)
      ? value.join(',')
      : typeof value === 'boolean'
        ? value
          ? '1'
          : '0'
        : String(value);
  }
  if (q) raw.q = q;
  return raw;
}

function listText(result: SearchResult, baseUrl: string): string {
  const lines = [`${result.understood} — ${result.total} match${result.total === 1 ? '' : 'es'}.`];
  result.events.forEach(({ entry, reasons }, i) => {
    const e = entry.event;
    lines.push(
      `${i + 1}. ${e.title} — ${formatWhen(e)} — ${whereOf(e)} — ${e.organizer}\n   ${eventPageUrl(baseUrl, e)}\n   Why: ${reasons.join('; ')}`,
    );
  });
  return lines.join('\n');
}

const SERVER_INFO = { name: 'tech-events', title: 'Tech events in Switzerland, Germany and Austria', version: '1.0.0' };
const INSTRUCTIONS =
  'Search, rank and subscribe to tech events in ch, de and at. Answers carry match reasons; event pages link to the host.';

/**
 * One JSON Schema validator (an Ajv instance, costly to build) for all servers instead of one per server. A server
 * only uses it to check what a client answers to a server-initiated request (elicitation), which these tools never make.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * A new MCP server (stateless mode: any app node can answer any request). Every tool calls the same query engine as
 * /api/events; only `rsvp` needs a key, which it reads per request from `extra.authInfo` (see `callerAuthInfo`).
 * The server holds no per-request state, so it can serve request after request (see `McpServerPool`).
 */
export function buildMcpServer(ctx: AppContext): McpServer {
  const baseUrl = ctx.config.baseUrl;
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, jsonSchemaValidator: sharedValidator });
  const runSearch = (raw: Record<string, string>) => search(ctx.index, parseSearchParams(raw), ctx.now());
  const listResult = (result: SearchResult): CallToolResult => {
    const structured = toSearchResponse(result, baseUrl);
    return {
      content: [{ type: 'text', text: listText(result, baseUrl) }],
      structuredContent: {
        understood: structured.understood,
        total: structured.total,
        count: structured.count,
        calendar: structured.calendar,
        events: structured.events,
      },
    };
  };

  server.registerTool('search_events', SEARCH_EVENTS_TOOL, async (args) => {
    try {
      return listResult(runSearch(toRawQuery(args as Args)));
    } catch (error) {
      return asToolError(error);
    }
  });

  server.registerTool('find_events', FIND_EVENTS_TOOL, async (args) => {
    try {
      return listResult(runSearch(toRawQuery(args as Args)));
    } catch (error) {
      return asToolError(error);
    }
  });

  server.registerTool('best_next_event', BEST_NEXT_EVENT_TOOL, async (args) => {
    try {
      const a = args as Args;
      const raw = toRawQuery(a, String(a.wishes ?? ''));
      if (a.audience === 'founders') raw.who = 'founders';
      else if (typeof a.audience === 'string') raw.q = `${raw.q ?? ''} for ${a.audience}`.trim();
      raw.limit = '3';
      const result = runSearch(raw);
      const [best, ...rest] = result.events.map((r) => toEventView(r.entry.event, baseUrl, r.reasons));
      const text = best
        ? `Best: ${best.title} (${best.url}) — because ${best.matchReasons.join('; ')}.${rest.length ? ` Runners-up: ${rest.map((e) => e.title).join(', ')}.` : ''}`
        : `Nothing upcoming matches “${a.wishes}”. Try fewer words or another city.`;
      return {
        content: [{ type: 'text', text: `${result.understood}. ${text}` }],
        structuredContent: {
          understood: result.understood,
          best: best ?? null,
          runnersUp: rest,
          total: result.total,
        },
      };
    } catch (error) {
      return asToolError(error);
    }
  });

  server.registerTool('get_event', GET_EVENT_TOOL, async (args) => {
    const a = args as { id?: string; country?: string; url?: string };
    let id = a.id;
    let country = a.country;
    if (!id && a.url) {
      const match = /\/(ch|de|at)\/events\/([^/?#]+)/.exec(a.url);
      if (match) [, country, id] = match;
      id = id === undefined ? undefined : safeDecode(id);
    }
    if (!id) return toolError('Give the event id (with its country), or the event page URL.');
    if (!isPlausibleId(id))
      return toolError(`That is not an event id. Use search_events to find events and their ids.`);
    const event = await ctx.events.findById(id);
    if (!event || (country && event.country !== country)) {
      return toolError(
        `No event “${id}”${country ? ` in ${country}` : ''}. Use search_events to find events and their ids.`,
      );
    }
    const page = eventPageUrl(baseUrl, event);
    const cancelled = event.lifecycle === 'cancelled';
    return {
      content: [
        {
          type: 'text',
          text: `${cancelled ? 'CANCELLED — ' : ''}${event.title}\n${formatWhen(event)} · ${whereOf(event)} · ${event.organizer}\nPage: ${page}\nTickets: ${event.sourceUrl ?? event.url ?? page}`,
        },
      ],
      structuredContent: {
        event: {
          ...toEventView(event, baseUrl),
          lifecycle: event.lifecycle,
          end: event.end?.toISOString() ?? null,
          allDay: event.allDay,
          description: event.description,
        },
        page,
        calendar: `${page}.ics`,
        cancelled,
      },
    };
  });

  server.registerTool('subscribe_calendar', SUBSCRIBE_CALENDAR_TOOL, async (args) => {
    try {
      const params = parseSearchParams(toRawQuery(args as Args));
      const qs = toQueryString(params);
      const https = `${baseUrl}/api/calendar?${qs}`;
      const webcal = https.replace(/^https?:/, 'webcal:');
      const howTo =
        'Open the webcal link on a phone or Mac, or paste the https link into Google Calendar under “Other calendars → From URL”.';
      return {
        content: [
          { type: 'text', text: `Subscribe: ${webcal}\n(or ${https})\nMarkdown: ${baseUrl}/api/md?${qs}\n${howTo}` },
        ],
        structuredContent: {
          https,
          webcal,
          markdown: `${baseUrl}/api/md?${qs}`,
          json: `${baseUrl}/api/events?${qs}`,
          howTo,
        },
      };
    } catch (error) {
      return asToolError(error);
    }
  });

  server.registerTool('rsvp', RSVP_TOOL, async (args, extra) => {
    const caller = callerOf(extra.authInfo);
    if (!caller.key) {
      return toolError(
        caller.keyProblem === 'invalid'
          ? 'The API key sent is unknown or revoked. Ask the catalogue operator for a key and send it as the HTTP header `Authorization: Bearer <key>` on requests to /api/mcp.'
          : 'rsvp needs an API key: configure your MCP client to send the HTTP header `Authorization: Bearer <key>` with requests to /api/mcp.',
      );
    }
    const a = args as { id: string; country?: string; action: 'register' | 'withdraw' };
    if (!isPlausibleId(a.id))
      return toolError('That is not an event id. Use search_events to find events and their ids.');
    try {
      const existing = await ctx.events.findById(a.id);
      if (!existing || (a.country && existing.country !== a.country)) {
        return toolError(
          `No event “${a.id}”${a.country ? ` in ${a.country}` : ''}. Use search_events to find events and their ids.`,
        );
      }
      const r = await rsvp(ctx, caller.key.id, a.id, a.action);
      ctx.index.setAttendance([[r.event.id, r.counts.registered + r.counts.waitlisted]]);
      const reg = r.registration;
      const place = r.waitlistPlace ? ` (place ${r.waitlistPlace} on the waitlist)` : '';
      return {
        content: [{ type: 'text', text: `${r.event.title}: ${reg.status}${place}${r.changed ? '' : ' — unchanged'}.` }],
        structuredContent: {
          eventId: r.event.id,
          eventTitle: r.event.title,
          eventUrl: eventPageUrl(baseUrl, r.event),
          status: reg.status,
          waitlistPlace: r.waitlistPlace,
          changed: r.changed,
          registeredAt: reg.createdAt.toISOString(),
          updatedAt: reg.updatedAt.toISOString(),
          counts: r.counts,
        },
      };
    } catch (error) {
      return asToolError(error);
    }
  });
  return server;
}

/**
 * Idle MCP servers, reused across requests: building one (six tools, their schemas and handlers) costs more than
 * answering most calls. A server serves one request at a time — it is taken with `acquire`, connected to that
 * request's own transport (a stateless transport serves one request only), and given back with `release` once the
 * transport is closed. Servers beyond `maxIdle` are dropped, so a burst does not pin memory.
 */
export class McpServerPool {
  private readonly idle: McpServer[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly maxIdle = 32,
  ) {}

  acquire(): McpServer {
    return this.idle.pop() ?? buildMcpServer(this.ctx);
  }

  /** Takes back a server whose transport is closed; one still connected is never handed out again. */
  release(server: McpServer): void {
    if (server.isConnected() || this.idle.length >= this.maxIdle || this.idle.includes(server)) return;
    this.idle.push(server);
  }

  get idleCount(): number {
    return this.idle.length;
  }
}
