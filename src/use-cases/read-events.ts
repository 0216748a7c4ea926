import { ServiceError } from '../catalogue/errors.js';
import { type CatalogueEvent, keyOwner } from '../catalogue/event.js';
import type { AppContext, ServingContext } from '../context.js';
import { COUNTRY_INFO, type Country, isCountry } from '../places/countries.js';
import { decodeCursor, encodeCursor, eventDigest, SeenFilter } from '../query/cursor.js';
import { DEFAULT_LIMIT, parseSearchParams, type Scope, type SearchParams, toQueryString } from '../query/params.js';
import type { ReadIndex, SearchResult } from '../query/read-index.js';
import type { ApiKeyRecord } from '../storage/keys.repository.js';
import type { RegistrationCounts } from '../storage/registrations.repository.js';

/** The read index of a process that serves reads (the CLI's processes serve none). */
function readIndex(ctx: AppContext): ReadIndex {
  if (!ctx.index) throw new Error('this process keeps no read index');
  return ctx.index;
}

/** A page of results, and the cursor of the next one when more events match. */
export interface SearchPage extends SearchResult {
  nextCursor: string | undefined;
}

/** The query a cursor is bound to: every parameter but `limit` (and the cursor), the country as searched. */
function pagedQuery(params: SearchParams, country: Scope): string {
  return toQueryString({ ...params, country, limit: DEFAULT_LIMIT });
}

/**
 * Any query of the shared grammar (docs/contract.md, Reading: the query grammar): ranked events with reasons, how
 * the prompt was understood, and the next page's cursor.
 */
export async function searchEvents(ctx: ServingContext, query: Record<string, unknown>): Promise<SearchPage> {
  const params = parseSearchParams(query);
  const page = params.cursor
    ? decodeCursor(ctx.cursorSecret, pagedQuery(params, params.country), params.cursor)
    : undefined;
  const result = readIndex(ctx).search(params, ctx.now(), page);
  readIndex(ctx).noteRead(result.dependsOn);
  const next = result.next && encodeCursor(ctx.cursorSecret, pagedQuery(params, result.country), result.next);
  return { ...result, nextCursor: next };
}

/** Ids are slugs: not empty, no control characters (PostgreSQL text refuses NUL), well-formed Unicode. */
function isPlausibleId(id: string): boolean {
  return id.length > 0 && id.length <= 200 && !/\p{Cc}/u.test(id) && id.isWellFormed();
}

export interface EventRecord {
  event: CatalogueEvent;
  /** Links to the same event listed by other sources. */
  alsoListedAt: readonly string[];
  cancelled: boolean;
}

/** One event by id, whatever its state (cancelled and unlisted events keep their page); listed ones from the index. */
export async function getEvent(
  ctx: AppContext,
  target: { id: string; country?: string | undefined },
): Promise<EventRecord> {
  const { id, country } = target;
  const notFound = () => {
    const where = country && isCountry(country) ? ` in ${COUNTRY_INFO[country].name}` : '';
    return new ServiceError('event-not-found', `No event “${id}”${where}.`);
  };
  if (!isPlausibleId(id) || (country !== undefined && !isCountry(country))) throw notFound();
  const listed = ctx.index?.event(id);
  const event = listed?.event ?? (await ctx.events.findById(id));
  if (!event || (country !== undefined && event.country !== (country as Country))) throw notFound();
  ctx.index?.noteRead([event.country]);
  return { event, alsoListedAt: listed?.alsoListedAt ?? [], cancelled: event.lifecycle === 'cancelled' };
}

/** A page of a host's own events. */
export interface OwnEventsPage {
  events: CatalogueEvent[];
  /** All of the host's events. */
  total: number;
  limit: number;
  registrations: Map<string, RegistrationCounts>;
  nextCursor: string | undefined;
}

/** A host's own events, unlisted and cancelled included, by start, a page at a time, with registration counts. */
export async function listOwnEvents(
  ctx: ServingContext,
  host: ApiKeyRecord,
  query: Record<string, unknown>,
): Promise<OwnEventsPage> {
  const params = parseSearchParams(query);
  const bound = `mine|${host.id}`;
  const page = params.cursor ? decodeCursor(ctx.cursorSecret, bound, params.cursor) : undefined;
  const all = (await ctx.events.listByOwner(keyOwner(host.id))).sort(
    (a, b) => a.start.getTime() - b.start.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  let digest = 0;
  for (const e of all) digest ^= eventDigest(e.id, e.revision);
  const seen = page && page.digest !== digest ? page.seen : undefined;
  const after = (e: CatalogueEvent) =>
    !page || e.start.getTime() > page.key.startMs || (e.start.getTime() === page.key.startMs && e.id > page.key.id);
  const rest = all.filter((e) => after(e) && !seen?.has(e.id));
  const events = rest.slice(0, params.limit);
  let nextCursor: string | undefined;
  const last = events.at(-1);
  if (rest.length > params.limit && last) {
    const served = new SeenFilter(page?.seen.bits.slice());
    for (const e of events) served.add(e.id);
    const key = { startMs: last.start.getTime(), id: last.id };
    nextCursor = encodeCursor(ctx.cursorSecret, bound, { key, digest, day: 0, seen: served });
  }
  const registrations = await ctx.registrations.countsFor(events.map((e) => e.id));
  return { events, total: all.length, limit: params.limit, registrations, nextCursor };
}
