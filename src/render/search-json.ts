import type { SearchResult } from '../query/engine.js';
import { toQueryString } from '../query/params.js';
import { type EventView, toEventView } from './event-json.js';

/** The event list response (spec §2.2). */
export interface SearchResponse {
  query: { country: string; q: string; topics: string[]; limit: number };
  count: number;
  total: number;
  understood: string;
  calendar: string;
  events: EventView[];
}

export function calendarUrl(baseUrl: string, result: SearchResult): string {
  return `${baseUrl}/api/calendar?${toQueryString({ ...result.params, country: result.country })}`;
}

export function toSearchResponse(result: SearchResult, baseUrl: string): SearchResponse {
  const topics = [...new Set([...result.params.topics, ...result.understanding.topics.map((t) => t.slug)])];
  return {
    query: { country: result.country, q: result.params.q, topics, limit: result.params.limit },
    count: result.events.length,
    total: result.total,
    understood: result.understood,
    calendar: calendarUrl(baseUrl, result),
    events: result.events.map((r) => toEventView(r.entry.event, baseUrl, r.reasons)),
  };
}
