import type { Feature, FeatureCollection, Point } from 'geojson';
import type { CatalogueEvent } from '../catalogue/event.js';
import type { SearchResult } from '../query/read-index.js';
import { toEventView } from './event-json.js';
import { formatWhen, whereOf } from './when.js';

/** GeoJSON carries no more than this many decimals of a degree (RFC 7946 §11.2): about a metre. */
const DECIMALS = 5;
const rounded = (degrees: number) => Number(degrees.toFixed(DECIMALS));

/**
 * One event as a feature: a point where it happens, longitude first (RFC 7946 §3.1.1), or no geometry when it has
 * no place (online, or nowhere known). `precision` says what the point is: the event's own (`exact`) or the centre of
 * its city or country, which a map should draw as such rather than as an address.
 */
function featureOf(event: CatalogueEvent, baseUrl: string): Feature<Point | null> {
  const { geo: _, matchReasons: __, ...view } = toEventView(event, baseUrl);
  // An online event happens nowhere: the country's centre it carries for ranking is no place to draw it.
  const located =
    event.format !== 'online' && event.lat !== null && event.lng !== null && event.geoPrecision !== 'none';
  return {
    type: 'Feature',
    id: event.id,
    geometry: located ? { type: 'Point', coordinates: [rounded(event.lng!), rounded(event.lat!)] } : null,
    properties: {
      ...view,
      country: event.country,
      when: formatWhen(event),
      where: whereOf(event),
      precision: located ? event.geoPrecision : 'none',
    },
  };
}

/** A query's matches as an RFC 7946 FeatureCollection (WGS 84, no `crs`), in the engine's order. */
export function renderGeoJson(result: SearchResult, baseUrl: string): FeatureCollection<Point | null> {
  return { type: 'FeatureCollection', features: result.events.map(({ event }) => featureOf(event, baseUrl)) };
}
