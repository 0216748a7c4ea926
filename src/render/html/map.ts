import { geoMercator } from 'd3-geo';
import type { Translator } from '../../i18n/translator.js';
import { resolveCity } from '../../places/gazetteer.js';
import type { RankedEvent } from '../../query/read-index.js';
import { withLanguage } from './i18n.js';
import { MAP_BORDERS, MAP_PROJECTION, MAP_SHAPES, MAP_SIZE } from './map-base.js';
import { fitView, fontSize, type MapPoint, markerRadius, placeLabels, unitsPerPixel } from './map-view.js';
import { html, type SafeHtml } from './template.js';

const { width, height } = MAP_SIZE;
const projection = geoMercator().scale(MAP_PROJECTION.scale).translate(MAP_PROJECTION.translate);

/** The base map, served as /assets/map.svg: the three countries and their borders, no labels (the page has those). */
export const MAP_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<g fill="#dfe6ee" stroke="#8a94a3" stroke-width="0.8" stroke-linejoin="round">
<path d="${MAP_SHAPES.de}"/><path d="${MAP_SHAPES.at}"/><path d="${MAP_SHAPES.ch}"/>
</g>
<path d="${MAP_BORDERS}" fill="none" stroke="#5f6b7a" stroke-width="1.2" stroke-linejoin="round"/>
</svg>
`;

interface Marker extends MapPoint {
  country: string;
}

/**
 * One marker per place of the listed events, at the place's centre from the gazetteer: a marker stands for a city,
 * never a street address, whatever point an event carries. Online events and events without a known city have none.
 */
function markersOf(events: readonly RankedEvent[]): Marker[] {
  const byPlace = new Map<string, Marker>();
  for (const { event: e } of events) {
    if (e.format === 'online' || !e.city) continue;
    const place = resolveCity(e.city, e.country);
    if (!place) continue;
    const key = `${place.country}|${place.name}`;
    const known = byPlace.get(key);
    if (known) {
      known.count++;
      continue;
    }
    const point = projection([place.lng, place.lat]);
    if (!point) continue;
    byPlace.set(key, { name: place.name, country: place.country, x: point[0], y: point[1], count: 1 });
  }
  // The busiest places last, so that they are drawn over their neighbours; keyboard order follows.
  return [...byPlace.values()].sort((a, b) => a.count - b.count || a.name.localeCompare(b.name));
}

/**
 * Where the listed events are: a figure with the base map (this service's own asset, no tile server) zoomed to the
 * listed places, a marker per place with its number of events linking to that place's list, each place's name, and
 * the places and counts as its caption.
 */
export function mapFigure(events: readonly RankedEvent[], t: Translator): SafeHtml {
  const markers = markersOf(events);
  if (markers.length === 0) return html``;
  const label = (m: Marker) => t.t('map.marker', { place: m.name, count: m.count });
  const byCount = [...markers].reverse();
  const view = fitView(markers);
  const k = unitsPerPixel(view);
  const names = placeLabels(markers, view);
  const n = (value: number) => value.toFixed(1);
  const font = n(fontSize(k));
  return html`<figure class="map" aria-labelledby="map-caption">
<svg viewBox="${n(view.x)} ${n(view.y)} ${n(view.width)} ${n(view.height)}" role="group" aria-labelledby="map-caption">
<image href="/assets/map.svg" width="${String(width)}" height="${String(height)}"/>
${markers.map((m) => {
  const href = withLanguage(`/${m.country}`, new URLSearchParams({ city: m.name }), t.lang);
  return html`<a href="${href}" aria-label="${label(m)}"><circle cx="${n(m.x)}" cy="${n(m.y)}" r="${n(markerRadius(m.count, k))}"/><text class="count" x="${n(m.x)}" y="${n(m.y + 3.8 * k)}" font-size="${n(fontSize(k) * 0.9)}" aria-hidden="true">${String(m.count)}</text></a>`;
})}
<g aria-hidden="true">${markers.map((m, i) => {
    // Names are drawn over every marker and outside the links, whose labels say them with the count.
    const name = names[i];
    return name
      ? html`<text class="place" x="${n(name.x)}" y="${n(name.y)}" text-anchor="${name.anchor}" font-size="${font}" stroke-width="${n(3 * k)}">${m.name}</text>`
      : '';
  })}</g>
</svg>
<figcaption id="map-caption">${t.t('site.labelled', { label: t.t('map.caption'), value: byCount.map(label).join(' · ') })}</figcaption>
</figure>`;
}
