import { isTopic } from '../../catalogue/taxonomy.js';
import { calendarDay, dayText, localDay } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { distanceKm } from '../../places/gazetteer.js';
import { type Alternative, type SearchResult, zoneOf } from '../../query/read-index.js';
import { windowPeriod, windowPeriodKey } from '../restate.js';
import { countryName } from './i18n.js';

/**
 * How a near miss differs from what was asked, in the reader's language: the engine says it in English (the JSON,
 * markdown and MCP outputs carry that text); the page says it again from the event and the constraint it misses, as
 * the engine's table does (query/ranking/constraints.ts).
 */
export function differenceText(alt: Alternative, result: SearchResult, t: Translator, now: Date): string {
  const ev = alt.event;
  const u = result.understanding;
  switch (alt.constraint) {
    case 'window': {
      const window = u.window!;
      const zone = COUNTRY_INFO[ev.country].timeZone;
      const day = localDay(ev.start, zone);
      const first = localDay(window.from, zone);
      const when =
        day.slice(0, 7) === first.slice(0, 7)
          ? dayText(day, t, 'short')
          : calendarDay(day, t).toFormat(day.slice(0, 4) === first.slice(0, 4) ? 'LLLL' : 'LLLL yyyy');
      // A relative period is named in the sentence's own words ("not next week"), not as its capitalised label.
      const period = windowPeriodKey(window, zoneOf(result.country), now) ?? 'other';
      const asked = windowPeriod(window, zoneOf(result.country), now, t) ?? dayText(first, t, 'short');
      return t.t('differs.when', { when, period, asked });
    }
    case 'place': {
      const here = u.place!.place;
      if (ev.format === 'online') return t.t('format.online');
      if (ev.lat === null || ev.lng === null) return ev.city ?? '';
      return t.t('differs.distance', {
        city: ev.city ?? '',
        km: Math.round(distanceKm(here, ev.lat, ev.lng)),
        place: here.name,
      });
    }
    case 'country':
      if (ev.format === 'online') return t.t('differs.online', { country: ev.country });
      return ev.city ? `${ev.city}, ${countryName(t, ev.country)}` : countryName(t, ev.country);
    case 'subject': {
      const { named } = alt;
      const topic = ev.topics.find((s) => s !== 'general' && isTopic(s));
      return t.t('differs.subject', { topic: named ?? (topic ? t.t(`topic.${topic}` as 'topic.ai-ml') : '…') });
    }
    case 'kind': {
      const kind = [...alt.kinds][0];
      return kind ? t.t(`kind.${kind}`) : t.t('differs.notKind', { kind: t.t(`kind.${u.kinds[0]!}`) });
    }
    case 'format':
      return t.t(`format.${ev.format}`);
    case 'price':
      return t.t(`price.${ev.priceType}`);
    case 'audience':
      return t.t('differs.audience');
  }
}
