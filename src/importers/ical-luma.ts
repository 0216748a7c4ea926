/**
 * What Luma's calendar feeds say in their own way (see test/fixtures/calendars/luma-2025/README.md): the event's page
 * on the first line of DESCRIPTION, the venue in an "Address:" block, and as LOCATION an address, another site's page,
 * the event's own Luma page (its address shown to guests only, or an online event) or a guest's joining link.
 */

import type { Country } from '../places/countries.js';
import { type EventPlace, isMeetingLink, type Point, placedAt, readLocation } from './ical-location.js';

/** Luma writes `evt-…@events.lu.ma` for its events and `calev-…@events.lu.ma` for other calendars' it lists. */
export const isLumaUid = (uid: string | undefined): boolean => !!uid && /@events\.lu\.ma$/i.test(uid);

const LUMA_LINK = /^https?:\/\/(?:www\.)?(?:lu\.ma|luma\.com)\//i;
/** "Get up-to-date information at: <the event's page>"; other calendars' events: "Find more information on <…>". */
const PAGE_LINE = /^(Get up-to-date information at|Find more information on):?\s*(https?:\/\/\S+)\s*$/im;
/** The event's own page as LOCATION: nothing of the place (hidden until one registers, or none: online). */
const OWN_PAGE = /^https?:\/\/(?:www\.)?(?:lu\.ma|luma\.com)\/event\/evt-[a-z0-9]+\/?$/i;
/** A guest's way in (`/join/g-…`): online, and a personal key that is no one else's to keep. */
const JOIN_LINK = /^https?:\/\/(?:www\.)?(?:lu\.ma|luma\.com)\/join\//i;
/** "Address:" and its lines, up to the blank line that ends the block. */
const ADDRESS_BLOCK = /^Address:[ \t]*\n([\s\S]*?)(?:\n[ \t]*\n|(?![\s\S]))/im;
const HIDDEN_ADDRESS = /^check event page for more details\.?$/i;
/** Luma's own lines, which say nothing the record does not already carry (and name the hosts). */
const LUMA_LINES = [PAGE_LINE, /^Click to join:?\s*https?:\/\/\S+\s*$/im, /^Hosted by .*$/im];

export interface LumaEvent {
  /** The event's page (without a guest's `pk` key), or the page elsewhere of an event another calendar lists. */
  link: string | undefined;
  /** The host's own text, without Luma's lines. */
  description: string | undefined;
  /** LOCATION when it is words (an address, a room), not a link. */
  location: string | undefined;
  /** LOCATION when it is a link other than the event's own page or a joining link: a meeting room, or a page. */
  locationLink: string | undefined;
  /** The "Address:" block's lines, joined, when it names a place. */
  address: string | undefined;
  /** LOCATION is a joining link, or the event's own page with no address block: held online. */
  online: boolean;
  /** The address is shown to guests only ("Check event page for more details."): held in person, place unknown. */
  hidden: boolean;
}

/** A Luma link without the guest's personal key (`?pk=g-…`) that a guest's own feed carries. */
function withoutKey(link: string): string {
  try {
    const url = new URL(link.replace(/[.,;:!?)]+$/, ''));
    url.searchParams.delete('pk');
    return url.toString();
  } catch {
    return link;
  }
}

const isUrl = (text: string | undefined): text is string => !!text && /^https?:\/\/\S+$/i.test(text);

/** Reads one Luma event's DESCRIPTION and LOCATION (both as ical.js unescaped them). */
export function readLuma(description: string | undefined, location: string | undefined): LumaEvent {
  const text = description?.replace(/\r\n?/g, '\n') ?? '';
  const [, label, page] = PAGE_LINE.exec(text) ?? [];
  const block = ADDRESS_BLOCK.exec(text);
  const lines = (block?.[1] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const hidden = lines.length === 1 && HIDDEN_ADDRESS.test(lines[0]!);
  const address = !hidden && lines.length > 0 && !lines.every((l) => isUrl(l)) ? lines.join(', ') : undefined;
  const place = location?.replace(/\s+/g, ' ').trim() || undefined;
  const ownPage = isUrl(place) && OWN_PAGE.test(place);
  const join = isUrl(place) && JOIN_LINK.test(place);
  // Another calendar's event: its page is its LOCATION, the description's link only the calendar's.
  const elsewhere = isUrl(place) && !LUMA_LINK.test(place) && /^find/i.test(label ?? '');
  let rest = block ? text.replace(block[0], '\n') : text;
  for (const line of LUMA_LINES) rest = rest.replace(new RegExp(line.source, 'gim'), '');
  return {
    link: elsewhere ? place : page ? withoutKey(page) : undefined,
    description: rest.replace(/\n{3,}/g, '\n\n').trim() || undefined,
    location: isUrl(place) ? undefined : place,
    locationLink: isUrl(place) && !ownPage && !join ? place : undefined,
    address,
    online: join || (ownPage && !block),
    hidden,
  };
}

/**
 * Where a Luma event is: a meeting link or Luma's signs of an online event make it online; an address (LOCATION, else
 * the "Address:" block) or GEO places it in person; an address shown to guests only leaves the calendar's city to
 * stand in. Another site's page as LOCATION is no place.
 */
export function lumaPlace(luma: LumaEvent, geo: Point | undefined, preferred: Country | undefined): EventPlace {
  if (luma.online || (luma.locationLink && isMeetingLink(luma.locationLink)))
    return { format: 'online', from: 'event' };
  const words = luma.location ?? luma.address;
  if (words || geo) {
    const found = placedAt(readLocation(words, geo !== undefined, preferred), geo);
    return { ...found, from: luma.location || geo ? 'event' : 'description' };
  }
  return luma.hidden ? { format: 'in_person', from: 'calendar' } : { from: 'calendar' };
}
