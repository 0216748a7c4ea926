import { isTopic, topicLabel } from '../catalogue/taxonomy.js';
import { withoutForbidden } from '../catalogue/text.js';
import { translator } from '../i18n/translator.js';
import type { FeedEntry } from '../use-cases/feed-events.js';
import { eventPageUrl } from './event-json.js';
import { priceText } from './html/event-text.js';
import { formatWhen, whereOf } from './when.js';

export interface AtomOptions {
  baseUrl: string;
  /** The feed's own URL (rel="self"), also its id. */
  self: string;
  /** The same query as a page (rel="alternate"). */
  alternate: string;
  /** What the feed is, e.g. "Tech events · AI & ML in Zürich". */
  title: string;
  subtitle?: string;
}

/** XML 1.0 text: no control characters it forbids, markup characters as entities. */
function xml(text: string): string {
  return withoutForbidden(text.toWellFormed().replace(/(?![\t\n\r])\p{Cc}/gu, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const DNS_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

/**
 * An entry's id: the event's, which never changes (a tag URI, RFC 4151). Its authority is the service's host name
 * without the port, which the tag grammar has no room for; an IPv6 literal, no DNS name, is written as one label.
 */
export function entryId(baseUrl: string, eventId: string): string {
  const { hostname } = new URL(baseUrl);
  const authority = DNS_NAME.test(hostname) ? hostname : hostname.replace(/[^a-z0-9]+/gi, '-').replace(/^-+|-+$/g, '');
  return `tag:${authority || 'localhost'},2026:event:${encodeURIComponent(eventId)}`;
}

const english = translator('en');

/** What an entry says: when, where, topics, price, and the link to the event page, as escaped HTML. */
function contentOf(entry: FeedEntry, page: string): string {
  const { event } = entry;
  const topics = event.topics.map((t) => (isTopic(t) ? topicLabel(t) : t)).join(', ');
  const lines = [
    entry.cancelled ? '<strong>Cancelled by the host.</strong>' : undefined,
    `When: ${xml(formatWhen(event))}`,
    `Where: ${xml(whereOf(event))}`,
    topics ? `Topics: ${xml(topics)}` : undefined,
    `Price: ${xml(priceText(event, english))}`,
    `Host: ${xml(event.organizer)}`,
  ].filter(Boolean);
  return `<p>${lines.join('<br>')}</p><p><a href="${xml(page)}">Event page</a></p>`;
}

function renderEntry(entry: FeedEntry, baseUrl: string): string {
  const { event } = entry;
  const page = eventPageUrl(baseUrl, event);
  const title = `${entry.cancelled ? 'Cancelled: ' : ''}${event.title} · ${formatWhen(event)} · ${whereOf(event)}`;
  return [
    '<entry>',
    `<id>${xml(entryId(baseUrl, event.id))}</id>`,
    `<title type="text">${xml(title)}</title>`,
    `<updated>${entry.updated.toISOString()}</updated>`,
    `<published>${event.createdAt.toISOString()}</published>`,
    `<author><name>${xml(event.organizer)}</name></author>`,
    `<link rel="alternate" type="text/html" href="${xml(page)}"/>`,
    ...event.topics.map((t) => `<category term="${xml(t)}" label="${xml(isTopic(t) ? topicLabel(t) : t)}"/>`),
    `<summary type="text">${xml(`${entry.cancelled ? 'Cancelled. ' : ''}${formatWhen(event)} · ${whereOf(event)}`)}</summary>`,
    `<content type="html">${xml(contentOf(entry, page))}</content>`,
    '</entry>',
  ].join('\n');
}

/** The newest `updated` of the entries; a feed without entries has changed never (so its body stays the same). */
export function feedUpdated(entries: readonly FeedEntry[]): Date {
  return new Date(Math.max(0, ...entries.map((e) => e.updated.getTime())));
}

/**
 * An RFC 4287 Atom feed of the entries, in the order given. Written here rather than with a feed library: those on
 * npm pretty-print CDATA inside text constructs or mark titles as HTML (docs/api.md#atom-feeds).
 */
export function renderAtom(entries: readonly FeedEntry[], options: AtomOptions): string {
  return `${[
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `<id>${xml(options.self)}</id>`,
    `<title type="text">${xml(options.title)}</title>`,
    ...(options.subtitle ? [`<subtitle type="text">${xml(options.subtitle)}</subtitle>`] : []),
    `<updated>${feedUpdated(entries).toISOString()}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${xml(options.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${xml(options.alternate)}"/>`,
    `<author><name>tech-events</name><uri>${xml(options.baseUrl)}</uri></author>`,
    '<generator>tech-events</generator>',
    ...entries.map((entry) => renderEntry(entry, options.baseUrl)),
    '</feed>',
  ].join('\n')}\n`;
}
