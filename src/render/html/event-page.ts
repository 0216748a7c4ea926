import { type CatalogueEvent, takesRsvps } from '../../catalogue/event.js';
import { isTopic } from '../../catalogue/taxonomy.js';
import { formatWhen, machineTime } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import { localTime } from '../../places/zones.js';
import { eventPageUrl } from '../event-json.js';
import { calendarLinks, mapLink } from './calendar-links.js';
import { cfpNote, eventLanguages, languagesText, openCallForPapers } from './event-extras.js';
import { organizerText, priceText, siteOf, whereText } from './event-text.js';
import { titleLang, withLanguage } from './i18n.js';
import { layout, type PageMeta } from './layout.js';
import { html, jsonForScript, type SafeHtml } from './template.js';

const ATTENDANCE = {
  in_person: 'https://schema.org/OfflineEventAttendanceMode',
  online: 'https://schema.org/OnlineEventAttendanceMode',
  hybrid: 'https://schema.org/MixedEventAttendanceMode',
} as const;

/** schema.org Event, so search engines and assistants read the page as an event. */
function jsonLd(event: CatalogueEvent, page: string, languages: readonly string[]): unknown {
  const zone = COUNTRY_INFO[event.country].timeZone;
  const iso = (d: Date) => (event.allDay ? localTime(d, zone).toISODate() : localTime(d, zone).toISO());
  const place = {
    '@type': 'Place',
    name: event.venue ?? event.city ?? COUNTRY_INFO[event.country].name,
    address: {
      '@type': 'PostalAddress',
      addressLocality: event.city ?? undefined,
      addressCountry: event.country.toUpperCase(),
    },
    ...(event.lat !== null && event.lng !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: event.lat, longitude: event.lng } }
      : {}),
  };
  const virtual = { '@type': 'VirtualLocation', url: event.sourceUrl ?? event.url ?? page };
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: event.title,
    startDate: iso(event.start),
    ...(event.end ? { endDate: iso(event.allDay ? new Date(event.end.getTime() - 1) : event.end) } : {}),
    eventStatus:
      event.lifecycle === 'cancelled' ? 'https://schema.org/EventCancelled' : 'https://schema.org/EventScheduled',
    eventAttendanceMode: ATTENDANCE[event.format],
    location: event.format === 'online' ? virtual : event.format === 'hybrid' ? [place, virtual] : place,
    organizer: { '@type': 'Organization', name: event.organizer },
    url: page,
    ...(event.description ? { description: event.description } : {}),
    ...(languages.length ? { inLanguage: languages.length === 1 ? languages[0] : languages } : {}),
    ...(event.priceType !== 'unknown'
      ? {
          offers: {
            '@type': 'Offer',
            price: event.priceType === 'free' ? 0 : Number(event.priceAmount ?? 0),
            priceCurrency: event.currency,
            url: event.sourceUrl ?? event.url ?? page,
          },
        }
      : {}),
  };
}

export interface EventPageOptions {
  t: Translator;
  baseUrl: string;
  now: Date;
  alsoListedAt?: readonly string[];
  freshness?: PageMeta['freshness'];
}

/**
 * The page of one event, with everything the catalogue knows: the host's original link first (the main call to
 * action), when (in the country's zone) and where (with the exact point on OpenStreetMap), organiser, language and
 * call for papers, price, topics, registration, other listings, the description, and add-to-calendar links for
 * Google, Outlook and Apple (the `.ics`). JSON-LD and OpenGraph for search engines and link previews.
 */
export function renderEventPage(event: CatalogueEvent, options: EventPageOptions): string {
  const { t } = options;
  const page = eventPageUrl(options.baseUrl, event);
  const path = page.slice(options.baseUrl.length);
  const ticket = event.sourceUrl ?? event.url;
  const cancelled = event.lifecycle === 'cancelled';
  const when = formatWhen(event, t);
  const where = whereText(event, t);
  const languages = eventLanguages(event);
  const body = html`
<article>
  ${cancelled ? html`<p class="notice" role="alert"><strong>${t.t('event.cancelled')}</strong> ${t.t('event.cancelledKept')}</p>` : ''}
  <h1${titleLang(event, t)}>${event.title}</h1>
  ${ticket && !cancelled ? html`<p><a class="cta" href="${ticket}" rel="noopener nofollow">${t.t('event.cta')}</a></p>` : ''}
  ${ticket && cancelled ? html`<p><a href="${ticket}" rel="noopener nofollow">${t.t('event.original')}</a></p>` : ''}
  ${factsList(event, options, { when, where, languages })}
  ${takesRsvps(event) ? rsvpForms(event, path, t) : ''}
  ${event.description ? html`<section><h2>${t.t('event.about')}</h2><p class="description">${event.description}</p></section>` : ''}
  ${cancelled ? '' : calendarSection(event, page, t)}
  <p><a href="${withLanguage(`/${event.country}`, new URLSearchParams(), t.lang)}">${t.t('event.backToSearch', { country: event.country })}</a></p>
</article>`;
  return layout(
    {
      t,
      title: cancelled ? t.t('event.cancelledTitle', { title: event.title }) : event.title,
      description: `${when} · ${where} · ${organizerText(event, t)}`,
      baseUrl: options.baseUrl,
      path,
      query: new URLSearchParams(),
      head: html`<script type="application/ld+json">${jsonForScript(jsonLd(event, page, languages))}</script>`,
      ...(options.freshness ? { freshness: options.freshness } : {}),
    },
    body,
  );
}

/** When, where, host, language, call for papers, price, topics, format, registration and other listings. */
function factsList(
  event: CatalogueEvent,
  options: EventPageOptions,
  { when, where, languages }: { when: string; where: string; languages: readonly string[] },
): SafeHtml {
  const { t } = options;
  const zone = COUNTRY_INFO[event.country].timeZone;
  const cancelled = event.lifecycle === 'cancelled';
  const map = mapLink(event);
  const languageLine = languagesText(languages, t);
  const cfp = cfpNote(openCallForPapers(event, options.now), zone, t);
  const topics = event.topics.map((slug) => (isTopic(slug) ? t.t(`topic.${slug}`) : slug));
  const others = options.alsoListedAt ?? [];
  return html`<dl class="facts">
    <dt>${t.t('event.when')}</dt><dd><time datetime="${machineTime(event)}">${when}</time> <span class="muted">(${zone})</span></dd>
    <dt>${t.t('event.where')}</dt><dd>${where}${map ? html` · <a href="${map}" rel="noopener">${t.t('event.map')}</a>` : ''}</dd>
    <dt>${t.t('event.host')}</dt><dd>${organizerText(event, t)}</dd>
    ${languageLine ? html`<dt>${t.t('language.label')}</dt><dd>${languageLine}</dd>` : ''}
    ${cfp ? html`<dt>${t.t('event.cfp')}</dt><dd>${cfp}</dd>` : ''}
    <dt>${t.t('event.price')}</dt><dd>${priceText(event, t)} <span class="muted">— ${t.t('event.noTickets')}</span></dd>
    ${topics.length ? html`<dt>${t.t('event.topics')}</dt><dd>${topics.join(', ')}</dd>` : ''}
    <dt>${t.t('event.format')}</dt><dd>${t.t(`format.${event.format}`)}</dd>
    <dt>${t.t('event.registration')}</dt><dd>${cancelled ? t.t('registration.cancelled') : t.t(`registration.${event.regMode}`)}</dd>
    ${others.length ? html`<dt>${t.t('event.alsoListedAt')}</dt><dd><ul class="inline">${others.map((u) => html`<li><a href="${u}" rel="noopener nofollow">${siteOf(u)}</a></li>`)}</ul></dd>` : ''}
  </dl>`;
}

/**
 * Register and Withdraw for an event its host runs here: plain forms posting with the attendee's cookie. The page
 * itself holds nothing personal (it stays public and cached); the answer is a page of its own.
 */
function rsvpForms(event: CatalogueEvent, path: string, t: Translator): SafeHtml {
  const cancelled = event.lifecycle === 'cancelled';
  const action = `${path}/rsvp?hl=${t.lang}`;
  const form = (verb: 'register' | 'withdraw') =>
    html`<form class="rsvp" method="post" action="${action}"><input type="hidden" name="action" value="${verb}"><button type="submit" id="rsvp-${verb}">${t.t(`rsvp.${verb}`)}</button></form>`;
  return html`<section aria-labelledby="rsvp-heading">
    <h2 id="rsvp-heading">${t.t('rsvp.heading')}</h2>
    <p>${cancelled ? t.t('rsvp.cancelledHelp') : t.t('rsvp.help')}</p>
    ${cancelled ? '' : form('register')}${form('withdraw')}
    <p><a href="${withLanguage('/me', new URLSearchParams(), t.lang)}">${t.t('rsvp.mine')}</a></p>
  </section>`;
}

/** Add-to-calendar links: Google, Outlook and Office, the `.ics` file and a webcal subscription. */
function calendarSection(event: CatalogueEvent, page: string, t: Translator): SafeHtml {
  const ics = `${page}.ics`;
  const webcal = ics.replace(/^https?:/, 'webcal:');
  const calendars = calendarLinks(event, page);
  return html`<section>
    <h2>${t.t('event.addToCalendar')}</h2>
    <ul>
      <li><a href="${calendars.google}" rel="noopener nofollow">${t.t('event.google')}</a></li>
      <li><a href="${calendars.outlook}" rel="noopener nofollow">${t.t('event.outlook')}</a> · <a href="${calendars.office}" rel="noopener nofollow">${t.t('event.office')}</a></li>
      <li><a href="${ics}">${t.t('event.apple')}</a></li>
      <li><a href="${webcal}">${t.t('event.webcal')}</a></li>
    </ul>
  </section>`;
}

export interface NotFoundPageInput {
  t: Translator;
  baseUrl: string;
  path: string;
  /** What was not found, in the reader's language. */
  what: string;
}

export function renderNotFoundPage(input: NotFoundPageInput): string {
  const { t } = input;
  return layout(
    {
      t,
      title: t.t('notFound.title'),
      description: input.what,
      baseUrl: input.baseUrl,
      path: input.path,
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('notFound.heading')}</h1><p>${input.what}</p><p><a href="${withLanguage('/', new URLSearchParams(), t.lang)}">${t.t('notFound.search')}</a></p>`,
  );
}
