import { DateTime } from 'luxon';
import { COUNTRY_INFO } from '../../catalogue/countries.js';
import type { CatalogueEvent } from '../../catalogue/event.js';
import { isTopic, topicLabel } from '../../catalogue/taxonomy.js';
import { eventPageUrl } from '../event-json.js';
import { formatWhen, whereOf } from '../when.js';
import { layout } from './layout.js';
import { html, jsonForScript } from './template.js';

const ATTENDANCE = {
  in_person: 'https://schema.org/OfflineEventAttendanceMode',
  online: 'https://schema.org/OnlineEventAttendanceMode',
  hybrid: 'https://schema.org/MixedEventAttendanceMode',
} as const;

export function priceLabel(event: Pick<CatalogueEvent, 'priceType' | 'priceAmount' | 'currency'>): string {
  if (event.priceType === 'free') return 'Free';
  if (event.priceType === 'paid')
    return event.priceAmount !== null ? `${event.currency} ${Number(event.priceAmount).toFixed(2)}` : 'Paid';
  return 'Price not given';
}

/** schema.org Event, so search engines and assistants read the page as an event. */
function jsonLd(event: CatalogueEvent, page: string): unknown {
  const zone = COUNTRY_INFO[event.country].timeZone;
  const iso = (d: Date) =>
    event.allDay ? DateTime.fromJSDate(d, { zone }).toISODate() : DateTime.fromJSDate(d, { zone }).toISO();
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
  baseUrl: string;
  alsoListedAt?: readonly string[];
}

/** The page of one event: the original ticket link as the main call to action, calendar links, JSON-LD. */
export function renderEventPage(event: CatalogueEvent, options: EventPageOptions): string {
  const page = eventPageUrl(options.baseUrl, event);
  const ics = `${page}.ics`;
  const webcal = ics.replace(/^https?:/, 'webcal:');
  const ticket = event.sourceUrl ?? event.url;
  const cancelled = event.lifecycle === 'cancelled';
  const topics = event.topics.map((t) => (isTopic(t) ? topicLabel(t) : t));
  const description = `${formatWhen(event)} · ${whereOf(event)} · ${event.organizer}`;
  const body = html`
<article>
  ${cancelled ? html`<p class="notice" role="alert"><strong>This event has been cancelled by its host.</strong> The page stays up so that links keep working.</p>` : ''}
  <h1>${event.title}</h1>
  <dl class="facts">
    <dt>When</dt><dd>${formatWhen(event)} <span class="muted">(${COUNTRY_INFO[event.country].timeZone})</span></dd>
    <dt>Where</dt><dd>${whereOf(event)}</dd>
    <dt>Host</dt><dd>${event.organizer}</dd>
    <dt>Price</dt><dd>${priceLabel(event)} <span class="muted">— we sell no tickets; the host does.</span></dd>
    ${topics.length ? html`<dt>Topics</dt><dd>${topics.join(', ')}</dd>` : ''}
    <dt>Registration</dt><dd>${event.regMode === 'invite' ? 'By invitation' : event.regMode === 'waitlist' ? 'Waitlist' : 'Open'}</dd>
  </dl>
  ${ticket && !cancelled ? html`<p><a class="cta" href="${ticket}" rel="noopener nofollow">Tickets &amp; registration on the host's site</a></p>` : ''}
  ${ticket && cancelled ? html`<p><a href="${ticket}" rel="noopener nofollow">The host's original page</a></p>` : ''}
  ${event.description ? html`<section><h2>About</h2><p>${event.description}</p></section>` : ''}
  <section>
    <h2>Add to your calendar</h2>
    <ul>
      <li><a href="${ics}">Download .ics</a></li>
      <li><a href="${webcal}">Subscribe (webcal)</a></li>
    </ul>
  </section>
  ${options.alsoListedAt?.length ? html`<section><h2>Also listed at</h2><ul>${options.alsoListedAt.map((u) => html`<li><a href="${u}" rel="noopener nofollow">${u}</a></li>`)}</ul></section>` : ''}
</article>`;
  return layout(
    {
      title: `${cancelled ? 'Cancelled: ' : ''}${event.title}`,
      description,
      url: page,
      head: html`<script type="application/ld+json">${jsonForScript(jsonLd(event, page))}</script>`,
    },
    body,
  );
}

export function renderNotFoundPage(baseUrl: string, what: string): string {
  return layout(
    { title: 'Not found · Tech events', description: what, url: baseUrl },
    html`<h1>Not found</h1><p>${what}</p><p><a href="/">Search all events</a></p>`,
  );
}
