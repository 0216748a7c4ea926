import { DateTime } from 'luxon';
import { foldText } from '../catalogue/lexicon.js';
import { COUNTRIES, COUNTRY_INFO, type Country } from '../places/countries.js';
import { zoneNamed } from '../places/zones.js';
import { passesFilters } from './filters.js';
import type { CatalogueIndex } from './index/catalogue-index.js';
import { type CountryShard, formatCode } from './index/country-shard.js';
import type { ShardSearch } from './index/shard-search.js';
import type { Scope, SearchParams } from './params.js';
import { type Understanding, understandQuery } from './prompt/understand.js';
import {
  type Asked,
  askedOf,
  asksAnything,
  rankingOf,
  rankShard,
  rankShardByScan,
  type ShardQuery,
  type ShardRanking,
} from './rank-shard.js';
import { titled, visitPhrase } from './ranking/fits.js';
import { prepareQuery, titleWordsOf } from './ranking/prepare.js';

/**
 * What a query resolves to before any event is looked at: the countries it searches, what it asks of each country's
 * shard, and how it orders (see engine.ts).
 */

/** Local day bounds of the `from`/`to` parameters in the country's zone; open ends are ±infinity. */
function dateBounds(p: SearchParams, zone: string): [number, number] {
  const from = p.from
    ? DateTime.fromISO(p.from, { zone: zoneNamed(zone) })
        .startOf('day')
        .toMillis()
    : Number.NEGATIVE_INFINITY;
  const to = p.to
    ? DateTime.fromISO(p.to, { zone: zoneNamed(zone) })
        .plus({ days: 1 })
        .startOf('day')
        .toMillis()
    : Number.POSITIVE_INFINITY;
  return [from, to];
}

/**
 * The countries a query searches. Text wins over the parameter: a place named in `q` decides ("PHP in Berlin"
 * searches Germany whatever `country` says), else a country named ("in Österreich"); else `country` (one, or `all`);
 * else where the person says they are; else Switzerland.
 */
export function scopeOf(u: Understanding, params: SearchParams): Scope {
  if (u.place) return u.place.place.country;
  if (u.country) return u.country;
  if (params.countryExplicit) return params.country;
  return u.home?.place.country ?? params.country;
}

/**
 * The countries holding an upcoming event the prompt names by its title ("IT-Tage"), when nothing else decides the
 * country: the event named decides it, as a place named would.
 */
function countriesNamed(index: CatalogueIndex, u: Understanding, params: SearchParams, nowMs: number): Country[] {
  if (u.place || u.country || u.home || params.countryExplicit) return [];
  const words = titleWordsOf(u);
  if (words.length === 0) return [];
  const holds = (c: Country) => {
    const shard = index.shard(c);
    let found = false;
    visitPhrase(shard, words, (slot) => {
      found ||= shard.endsAt[slot]! > nowMs && titled(shard, slot, words);
    });
    return found;
  };
  // The country searched by default holding one, the others need not be looked at.
  const home = params.country === 'all' ? undefined : params.country;
  if (home && holds(home)) return [home];
  return COUNTRIES.filter((c) => c !== home && holds(c));
}

/** The time zone a query's dates are read in: its country's (the three share their rules). */
export function zoneOf(scope: Scope): string {
  return COUNTRY_INFO[scope === 'all' ? 'ch' : scope].timeZone;
}

/** What a query resolves to before any event is looked at. */
export interface Plan {
  understanding: Understanding;
  scope: Scope;
  /** One query per country searched, in COUNTRIES order. */
  searched: ShardQuery[];
  asked: Asked;
  /** Whether ranking orders by prompt, by call-for-papers deadline, or is a listing in start order. */
  order: 'prompt' | 'deadline' | 'start';
  /** A query for any country's shard (the searched ones and, for near misses, the others). */
  queryFor: (country: Country) => ShardQuery;
  /**
   * Gives back to their shards the searches its queries took (ShardQuery.search): call it once the answer is made,
   * after which no ranking of this plan may be read.
   */
  release: () => void;
}

export function plan(index: CatalogueIndex, params: SearchParams, now: Date): Plan {
  const understanding = understandQuery(params.q, now, zoneOf(params.country));
  const nowMs = now.getTime();
  let scope = scopeOf(understanding, params);
  const named = countriesNamed(index, understanding, params, nowMs);
  if (named.length > 0 && !named.includes(scope as Country)) scope = named.length === 1 ? named[0]! : 'all';
  const zone = zoneOf(scope);
  const [from, to] = dateBounds(params, zone);
  // The country asked is a constraint of its own when no place is (the place decides the country then).
  const country = scope !== 'all' && !understanding.place && !params.city ? scope : undefined;

  const org = params.org === undefined ? undefined : foldText(params.org);
  const format = params.format === undefined ? -1 : formatCode(params.format);
  // Time, format and call-for-papers filters read the shard's columns; the others need the event itself.
  const needsEvent =
    params.topics.length > 0 ||
    params.seniority.length > 0 ||
    org !== undefined ||
    params.who !== undefined ||
    params.city !== undefined ||
    Object.keys(params.plain).length > 0;
  const cfpOpen = params.cfp === 'open' || understanding.cfp;
  const queryIn = prepareQuery(understanding, zone, nowMs, country, index.shared);
  const queries = new Map<Country, ShardQuery>();
  const taken: [CountryShard, ShardSearch][] = [];
  const queryFor = (c: Country): ShardQuery => {
    let sq = queries.get(c);
    if (!sq) {
      const shard = index.shard(c);
      const accept = (slot: number) =>
        shard.endsAt[slot]! > nowMs &&
        (!cfpOpen || shard.cfpClosesAt[slot]! > nowMs) &&
        shard.startMs[slot]! >= from &&
        shard.startMs[slot]! < to &&
        (format === -1 || shard.formatCode[slot] === format) &&
        (!needsEvent || passesFilters(shard.at(slot), params, org));
      let search: ShardSearch | undefined;
      sq = {
        shard,
        q: queryIn(shard),
        accept,
        // Taken when a ranking first needs it: a matcher (engine.ts) ranks nothing.
        get search() {
          if (!search) {
            search = shard.search();
            taken.push([shard, search]);
          }
          return search;
        },
      };
      queries.set(c, sq);
    }
    return sq;
  };
  const searched = (scope === 'all' ? COUNTRIES : [scope]).map(queryFor);
  // Full-text points are relative to the best match of the countries searched together.
  if (searched.length > 1) {
    const maxText = Math.max(...searched.map((s) => s.q.maxText));
    for (const s of searched) s.q = { ...s.q, maxText };
  }
  const asked = askedOf(searched[0]!.q);
  const order = params.q !== '' && asksAnything(asked) ? 'prompt' : cfpOpen ? 'deadline' : 'start';
  const release = () => {
    for (const [shard, search] of taken) shard.release(search);
    taken.length = 0;
  };
  return { understanding, scope, searched, asked, order, queryFor, release };
}

/** Scores every event with a call for papers by its deadline, the soonest highest (`-closesAt`). */
function rankByDeadline(sq: ShardQuery): ShardRanking {
  const { shard, accept } = sq;
  const { score } = sq.search;
  const out = rankingOf(sq);
  for (let i = 0; i < shard.order.length; i++) {
    const slot = shard.order.items[i]!;
    if (Number.isNaN(shard.cfpClosesAt[slot]!) || !accept(slot)) continue;
    score[slot] = -shard.cfpClosesAt[slot]!;
    out.matches.push(slot);
  }
  return out;
}

/** A shard's listing in start order: every accepted event, each scoring 0. */
function rankByStart(sq: ShardQuery): ShardRanking {
  const { shard, accept } = sq;
  const { score } = sq.search;
  const out = rankingOf(sq);
  for (let i = 0; i < shard.order.length; i++) {
    const slot = shard.order.items[i]!;
    if (!accept(slot)) continue;
    score[slot] = 0;
    out.matches.push(slot);
  }
  return out;
}

/** A shard's ranking; `limit`: the events a first page shows, when near misses are looked for (`nearToo`). */
export function rankIn(p: Plan, sq: ShardQuery, nearToo: boolean, byScan = false, limit = Infinity): ShardRanking {
  if (p.order === 'deadline') return rankByDeadline(sq);
  if (p.order === 'start') return rankByStart(sq);
  return byScan ? rankShardByScan(sq, p.asked, nearToo) : rankShard(sq, p.asked, nearToo, limit);
}
