import { ValidationError } from '../catalogue/errors.js';

/** The platforms whose calendar addresses are recognised; `ical` is any other iCal feed. */
export type CalendarPlatform = 'meetup' | 'luma' | 'google' | 'bevy' | 'ical';

/** What a proposed address is: the feed to read (normalised, so the same calendar is one URL), its platform and format. */
export interface RecognizedCalendar {
  url: string;
  platform: CalendarPlatform;
  /** The importer format that reads it (see importers/registry.ts): `ical`, or `bevy` for chapter pages. */
  format: string;
  /** The calendar's id on its platform: a Meetup group's urlname, a Google calendar's id. */
  id?: string;
}

const refuse = (message: string): never => {
  throw new ValidationError([{ field: 'url', message }]);
};

/** First path segments of meetup.com that are pages of the site, not groups. */
const MEETUP_PAGES: ReadonlySet<string> = new Set([
  'find',
  'topics',
  'cities',
  'login',
  'register',
  'apps',
  'about',
  'help',
  'pro',
  'lp',
  'blog',
  'home',
  'members',
  'messages',
  'account',
  'create',
  'start',
  'terms',
  'privacy',
  'your-events',
  'notifications',
  'api',
]);

/** A locale prefix of meetup.com's pages: /de-DE/<group>/, /fr-FR/…, /pt-BR/…. */
const LOCALE = /^[a-z]{2}-[A-Z]{2}$/;
const MEETUP_GROUP = /^[a-z0-9][a-z0-9_-]{0,79}$/i;

/** Any page of a Meetup group (its home, events list, an event, its iCal export): the group's iCal export. */
function meetup(url: URL): RecognizedCalendar {
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments[0] && LOCALE.test(segments[0])) segments.shift();
  const group = segments[0];
  if (!group || !MEETUP_GROUP.test(group) || MEETUP_PAGES.has(group.toLowerCase()))
    return refuse(
      'is a meetup.com page but not a group’s: give the group’s page, e.g. https://www.meetup.com/<group>/',
    );
  const id = group.toLowerCase();
  return { url: `https://www.meetup.com/${id}/events/ical/`, platform: 'meetup', format: 'ical', id };
}

const googleFeed = (id: string): RecognizedCalendar => ({
  url: `https://calendar.google.com/calendar/ical/${encodeURIComponent(id)}/public/basic.ics`,
  platform: 'google',
  format: 'ical',
  id,
});

/** A Google calendar id: an address-like name (`…@group.calendar.google.com`, `…@gmail.com`). */
const GOOGLE_ID = /^[^\s/@]+@[a-z0-9.-]+\.[a-z]{2,}$/i;

/** `cid=` carries the id in base64 (URL-safe or not, padded or not), or sometimes plainly. */
function googleCid(cid: string): string | undefined {
  if (GOOGLE_ID.test(cid)) return cid;
  const decoded = Buffer.from(cid.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  return GOOGLE_ID.test(decoded) ? decoded : undefined;
}

/** Google Calendar's embed, subscribe (`cid=`) and public iCal links: the public iCal feed. A private one stays as given. */
function google(url: URL): RecognizedCalendar {
  const ical = /^\/calendar\/ical\/([^/]+)\/(public|private-[^/]+)\/basic\.ics$/.exec(url.pathname);
  if (ical) {
    const id = decodeURIComponent(ical[1]!);
    if (ical[2] === 'public') return googleFeed(id);
    return { url: plain(url), platform: 'google', format: 'ical', id };
  }
  const src = url.searchParams.getAll('src').find((s) => GOOGLE_ID.test(s));
  if (src) return googleFeed(src);
  const cid = url.searchParams.get('cid');
  const fromCid = cid ? googleCid(cid) : undefined;
  if (fromCid) return googleFeed(fromCid);
  return refuse(
    'is a Google Calendar page that names no public calendar: give its embed link (…/embed?src=…), its share link ' +
      '(…?cid=…) or its public iCal address (…/public/basic.ics)',
  );
}

/** Luma's calendar ids (`cal-…`), city feeds' (`discplace-…`): letters and digits after the prefix. */
const LUMA_ID = /^(?:cal|discplace)-[A-Za-z0-9]{4,40}$/;
/** Luma's feeds, all of one address; the newest host the platform's own links give (lu.ma and luma.com are one). */
const lumaFeed = (entity: string, id: string): RecognizedCalendar => ({
  url: `https://api2.luma.com/ics/get?entity=${entity}&id=${id}`,
  platform: 'luma',
  format: 'ical',
  id,
});

const LUMA_SUBSCRIBE =
  'on the Luma calendar’s page, click “Add iCal Subscription” (the Subscribe button) and give the link it offers, ' +
  'https://api.lu.ma/ics/get?entity=calendar&id=cal-…';

/**
 * Luma: its iCal feeds (`/ics/get?entity=calendar&id=cal-…`, a city's `entity=discover`), and the pages that carry a
 * calendar's id (`/calendar/cal-…`, `/embed/calendar/cal-…/events`). A calendar's page by its name does not say its
 * id, and a person's own feed (`?u=`) is theirs: both are refused saying what to give instead.
 */
function luma(url: URL): RecognizedCalendar {
  if (/^\/ics\/get\/?$/.test(url.pathname)) {
    if (url.searchParams.has('u')) return refuse(`is a person’s own Luma feed, not a calendar’s: ${LUMA_SUBSCRIBE}`);
    const entity = url.searchParams.get('entity') ?? 'calendar';
    const id = url.searchParams.get('id') ?? '';
    if ((entity === 'calendar' || entity === 'discover') && LUMA_ID.test(id)) return lumaFeed(entity, id);
    return refuse(`is a Luma feed address without a calendar’s id (id=cal-…): ${LUMA_SUBSCRIBE}`);
  }
  const id = url.pathname.split('/').find((segment) => /^cal-[A-Za-z0-9]{4,40}$/.test(segment));
  if (id) return lumaFeed('calendar', id);
  return refuse(`is a Luma page, which does not carry its calendar’s iCal address: ${LUMA_SUBSCRIBE}`);
}

/** The Bevy platform's communities: Google Developer Groups (and their student chapters) and CNCF's. */
const BEVY_HOSTS: ReadonlySet<string> = new Set(['gdg.community.dev', 'gdsc.community.dev', 'community.cncf.io']);
/** Bevy hosts whose robots.txt asks automated readers to keep out of `/api/` (see docs/sources.md, "Bevy"). */
const API_DISALLOWED: ReadonlySet<string> = new Set(['gdg.community.dev', 'gdsc.community.dev']);
const CHAPTER_NUMBER = /^\d{1,9}$/;

/** The events list the importer reads: a chapter's upcoming ("Live") events, the chapter's city and country with each. */
const bevyList = (host: string, chapter: string): RecognizedCalendar => ({
  url: `https://${host}/api/event/?chapter=${chapter}&status=Live`,
  platform: 'bevy',
  format: 'bevy',
  id: chapter,
});

/**
 * Bevy: a chapter's events list by its number (`/api/event/?chapter=<n>`, `/api/chapter/<n>/event/`,
 * `/api/event_slim/for_chapter/<n>/`), or its dashboard's address (`…/accounts/dashboard/#/chapter-<n>/…`). A
 * chapter's page (`/cloud-native-zurich/`) does not carry the number, which the API needs: refused, saying where to
 * find it. Google Developer Groups' hosts ask robots to keep out of the API: refused, saying so.
 */
function bevy(url: URL, host: string): RecognizedCalendar {
  if (API_DISALLOWED.has(host))
    return refuse(
      `is a chapter of ${host}, whose robots.txt asks automated readers to keep out of /api/, where a chapter’s ` +
        'events list is: give the chapter’s Meetup, Luma or Google calendar if it keeps one',
    );
  const segments = url.pathname.split('/').filter(Boolean);
  const byQuery = segments.join('/') === 'api/event' ? url.searchParams.get('chapter') : null;
  const byPath =
    segments[0] === 'api' && segments[1] === 'chapter' && segments[3] === 'event'
      ? segments[2]
      : segments[0] === 'api' && segments[1] === 'event_slim' && segments[2] === 'for_chapter'
        ? segments[3]
        : undefined;
  const byDashboard = /chapter-(\d+)/.exec(url.hash)?.[1];
  const chapter = [byQuery, byPath, byDashboard].find((n): n is string => !!n && CHAPTER_NUMBER.test(n));
  if (chapter) return bevyList(host, chapter);
  const slug = segments[0] && !['api', 'events', 'accounts', 'e'].includes(segments[0]) ? segments[0] : '<chapter>';
  return refuse(
    `is a page of ${host}, which does not carry the chapter’s number that its events list needs: give ` +
      `https://${host}/api/event/?chapter=<number>, the number being in the address of the chapter’s dashboard ` +
      `(https://${host}/accounts/dashboard/#/chapter-<number>/…, which the chapter’s organisers see; that address ` +
      `may be given as it is) or in the chapter’s record of https://${host}/api/search/chapter/?q=${encodeURIComponent(slug.replace(/-/g, ' '))}`,
  );
}

/** A URL as read: without its fragment (never sent), the host as URL writes it (lower case). */
const plain = (url: URL) => {
  const copy = new URL(url);
  copy.hash = '';
  return copy.toString();
};

/**
 * What a proposed calendar address is: a Meetup group's page becomes its iCal export, a Google calendar's embed or
 * share link its public iCal feed, a Luma calendar's feed or id its feed, a Bevy chapter's events list or dashboard
 * its events list (format `bevy`), `webcal:` reads as https; any other http(s) URL is taken as an iCal feed.
 * Throws a ValidationError on `url` for what is not an absolute http(s) or webcal URL.
 */
export function recognizeCalendar(input: string): RecognizedCalendar {
  const given = input.trim();
  let url: URL;
  try {
    url = new URL(given.replace(/^webcals?:/i, 'https:'));
  } catch {
    return refuse('must be an absolute http(s) or webcal URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse(`must be an http(s) or webcal URL, not ${url.protocol}`);
  if (url.username || url.password) return refuse('must not carry a user name or password');
  const host = url.hostname.replace(/\.$/, '');
  if (host === 'meetup.com' || host === 'www.meetup.com') return meetup(url);
  if (host === 'calendar.google.com' || (host === 'www.google.com' && url.pathname.startsWith('/calendar/')))
    return google(url);
  if (/^(?:www\.|api2?\.)?(?:lu\.ma|luma\.com)$/.test(host)) return luma(url);
  if (BEVY_HOSTS.has(host)) return bevy(url, host);
  return { url: plain(url), platform: 'ical', format: 'ical' };
}
