import { placeText } from '../../catalogue/address.js';
import { type CatalogueEvent, UNKNOWN_ORGANIZER } from '../../catalogue/event.js';
import type { Translator } from '../../i18n/translator.js';

/** Where an event happens: "Impact Hub, Zürich", "Online", "Impact Hub, Zürich · auch online". */
export function whereText(event: Pick<CatalogueEvent, 'venue' | 'city' | 'format'>, t: Translator): string {
  if (event.format === 'online') return t.t('where.online');
  const place = placeText(event.venue, event.city) || t.t('where.tba');
  return event.format === 'hybrid' ? t.t('where.alsoOnline', { place }) : place;
}

/** Who runs it; "Organizer not given" in the reader's language when the source named nobody. */
export function organizerText(event: Pick<CatalogueEvent, 'organizer'>, t: Translator): string {
  return event.organizer === UNKNOWN_ORGANIZER ? t.t('event.unknownOrganizer') : event.organizer;
}

/** "Free", "CHF 12.50" / "12,50 CHF", "Price not given". */
export function priceText(
  event: Pick<CatalogueEvent, 'priceType' | 'priceAmount' | 'currency'>,
  t: Translator,
): string {
  if (event.priceType === 'free') return t.t('price.free');
  if (event.priceType === 'paid')
    return event.priceAmount !== null
      ? t.number(Number(event.priceAmount), { style: 'currency', currency: event.currency, currencyDisplay: 'code' })
      : t.t('price.paid');
  return t.t('price.unknown');
}

/** The host name of a link, for "also listed at confs.tech, meetup.com". */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}
