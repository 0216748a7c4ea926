import { DateTime } from 'luxon';
import { countryFromName } from '../catalogue/address.js';
import { classifySeniority, classifyTopics } from '../catalogue/classify.js';
import { type EventContent, plainContentOf, UNKNOWN_ORGANIZER } from '../catalogue/event.js';
import { locate, pointOf } from '../catalogue/locate.js';
import { isSeniority, isTopic } from '../catalogue/taxonomy.js';
import { cleanImported, isBlank, visibleOrNull } from '../catalogue/text.js';
import { deadlineWithinYears, withinYears, YEARS_MESSAGE } from '../catalogue/years.js';
import { COUNTRY_INFO, type Country } from '../places/countries.js';
import { resolveCity } from '../places/gazetteer.js';
import type { ImportedRecord } from './importer.js';

export { countryFromName };

/** A world-wide record outside CH/DE/AT: it names another country, or none while its city is none of ours. */
export function isElsewhere(record: ImportedRecord, defaultCountry?: Country): boolean {
  if (record.country) return countryFromName(record.country) === undefined;
  if (defaultCountry) return false;
  return !record.city || resolveCity(record.city) === undefined;
}

/** Description kept of an import (the link goes to the rest), cut at a sentence or word end with an ellipsis. */
export const DESCRIPTION_KEPT = 500;

export function shortDescription(text: string | undefined, max = DESCRIPTION_KEPT): string | null {
  const trimmed = text
    ?.replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!trimmed) return null;
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max - 1);
  const sentence = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('\n'));
  const end = sentence > max / 2 ? sentence + 1 : Math.max(cut.lastIndexOf(' '), max / 2);
  return `${cut.slice(0, end).trimEnd()}…`;
}

/** A record's text under the one text policy (catalogue/text.ts): what no output may carry, removed. */
function cleanRecord(record: ImportedRecord): ImportedRecord {
  return {
    ...record,
    title: cleanImported(record.title),
    description: cleanImported(record.description),
    city: cleanImported(record.city),
    country: cleanImported(record.country),
    venue: cleanImported(record.venue),
    organizer: cleanImported(record.organizer),
    topicHints: record.topicHints?.map((hint) => cleanImported(hint)),
    url: cleanImported(record.url),
    cfpUrl: cleanImported(record.cfpUrl),
  };
}

/** The instant a record's start or end stands for; dates are local midnights in the country's zone. */
function instantOf(when: ImportedRecord['start'], zone: string, dayAfter = false): Date {
  if ('instant' in when) return when.instant;
  const day = DateTime.fromISO(when.date, { zone }).startOf('day');
  return (dayAfter ? day.plus({ days: 1 }) : day).toJSDate();
}

/** Timed bounds from one local midnight to a later one: whole days, as calendars export them. */
function midnightToMidnight(record: ImportedRecord, zone: string): boolean {
  if (!record.end || !('instant' in record.start) || !('instant' in record.end)) return false;
  const start = DateTime.fromJSDate(record.start.instant, { zone });
  const end = DateTime.fromJSDate(record.end.instant, { zone });
  return end > start && start.equals(start.startOf('day')) && end.equals(end.startOf('day'));
}

/**
 * A parsed record as stored content: place from the gazetteer (the venue's city when its address names one; an exact
 * point only from real coordinates inside the country), topics and seniority from the lexicon when the source gives none. Throws saying what is wrong.
 */
export function enrichRecord(parsed: ImportedRecord, defaultCountry?: Country): EventContent {
  const record = cleanRecord(parsed);
  if (isBlank(record.title)) throw new Error('has no title (it is empty, or only spaces or invisible characters)');
  const named = countryFromName(record.country);
  if (record.country && !named) throw new Error(`country "${record.country}" is not ch, de or at`);
  const location = locate({ city: record.city, country: named, venue: record.venue, lat: record.lat, lng: record.lng });
  // An unknown city is fatal unless the event is online; a point outside the country is only not used.
  if (location.problems.some((p) => p.kind === 'unknown-city') && record.format !== 'online') {
    throw new Error(`city "${record.city}" is not a known place in ${named ?? 'Switzerland, Germany or Austria'}`);
  }
  const { place } = location;
  const country = location.country ?? defaultCountry;
  if (!country) throw new Error('no country: give a country or a city in ch, de or at');
  const { lat, lng, geoPrecision } = pointOf(location, country);
  const zone = COUNTRY_INFO[country].timeZone;
  const allDay = 'date' in record.start || midnightToMidnight(record, zone);
  const start = instantOf(record.start, zone);
  const end = record.end
    ? instantOf(record.end, zone, 'date' in record.end)
    : allDay
      ? instantOf(record.start, zone, true)
      : null;
  if (end && end < start) throw new Error('ends before it starts');
  if (!withinYears(start, zone) || (end && !withinYears(end, zone))) throw new Error(`its dates ${YEARS_MESSAGE}`);
  const cfpUntil = record.cfpUntil && deadlineWithinYears(record.cfpUntil, zone) ? record.cfpUntil : null;

  const givenTopics = (record.topics ?? []).filter(isTopic);
  const givenSeniority = (record.seniority ?? []).filter(isSeniority);
  return {
    country,
    title: record.title.trim(),
    description: visibleOrNull(record.description),
    start,
    end,
    allDay,
    city: place ? place.name : visibleOrNull(record.city),
    venue: visibleOrNull(record.venue),
    format: record.format ?? 'in_person',
    topics: givenTopics.length > 0 ? givenTopics : classifyTopics(record.title, record.description, record.topicHints),
    seniority: givenSeniority.length > 0 ? givenSeniority : classifySeniority(record.title, record.description),
    regMode: record.regMode ?? 'open',
    capacity: record.capacity ?? null,
    priceType: record.price ?? 'unknown',
    priceAmount: record.price === 'paid' && record.priceAmount !== undefined ? record.priceAmount.toFixed(2) : null,
    currency: COUNTRY_INFO[country].currency,
    organizer: visibleOrNull(record.organizer) ?? UNKNOWN_ORGANIZER,
    url: record.url ?? null,
    sourceUrl: record.url ?? null,
    lat,
    lng,
    geoPrecision,
    visibility: record.visibility ?? 'public',
    cfpUrl: record.cfpUrl ?? null,
    cfpUntil,
    ...plainContentOf(record),
  };
}
