import { describe, expect, it } from 'vitest';
import {
  countryCentroid,
  countryOfPoint,
  distanceKm,
  foldName,
  matchPlacePhrase,
  type Place,
  placeBySlug,
  resolvePlace,
} from '../src/places/gazetteer.js';

function resolved(name: string, country?: Parameters<typeof resolvePlace>[1]): string | undefined {
  const place = resolvePlace(name, country);
  return place && `${place.name} (${place.country})`;
}

function placeOf(name: string): Place {
  const place = resolvePlace(name);
  if (!place) throw new Error(`${name} did not resolve`);
  return place;
}

describe('foldName', () => {
  it('makes umlauts, their transliterations and plain vowels equivalent', () => {
    expect(new Set(['Zürich', 'Zurich', 'zuerich', 'ZÜRICH'].map(foldName))).toEqual(new Set(['zurich']));
    expect(new Set(['München', 'Muenchen', 'Munchen'].map(foldName)).size).toBe(1);
  });

  it('folds ß, accents, punctuation and saint prefixes', () => {
    expect(foldName('Großenhain')).toBe('grossenhain');
    expect(foldName('Genève')).toBe('geneve');
    expect(foldName('St. Gallen')).toBe(foldName('Sankt Gallen'));
    expect(foldName(' – ')).toBe('');
  });
});

describe('resolvePlace', () => {
  it.each([
    [['Zurich', 'Zürich', 'zuerich', 'ZÜRICH'], 'Zürich (ch)'],
    [['Genf', 'Geneva', 'Genève', 'Geneve'], 'Genève (ch)'],
    [['Munich', 'München', 'Muenchen'], 'München (de)'],
    [['Vienna', 'Wien'], 'Wien (at)'],
    [['Cologne', 'Köln', 'Koeln'], 'Köln (de)'],
    [['Lucerne', 'Luzern'], 'Luzern (ch)'],
    [['Berne', 'Bern'], 'Bern (ch)'],
    [['Bâle', 'Basel', 'Basilea'], 'Basel (ch)'],
    [['St. Gallen', 'St Gallen', 'Sankt Gallen'], 'Sankt Gallen (ch)'],
    [['Frankfurt'], 'Frankfurt am Main (de)'],
    [['Lugano'], 'Lugano (ch)'],
    [['Lausanne'], 'Lausanne (ch)'],
    [['Berlin'], 'Berlin (de)'],
    [['Hamburg'], 'Hamburg (de)'],
    [['Graz'], 'Graz (at)'],
    [['Linz'], 'Linz (at)'],
    [['Salzburg'], 'Salzburg (at)'],
    [['Innsbruck'], 'Innsbruck (at)'],
  ])('%j → %s', (names, expected) => {
    for (const name of names) expect(resolved(name)).toBe(expected);
  });

  it('restricts to the given country', () => {
    expect(resolvePlace('Frankfurt', 'ch')).toBeUndefined();
    expect(resolved('Freiburg', 'ch')).toBe('Fribourg (ch)');
    expect(resolved('Freiburg', 'de')).toBe('Freiburg (de)');
    expect(resolved('Zürich', 'ch')).toBe('Zürich (ch)');
  });

  it('ignores places outside Switzerland, Germany and Austria', () => {
    expect(resolvePlace('Paris')).toBeUndefined();
  });

  it('trims input, ignores surrounding punctuation and rejects empty input', () => {
    expect(resolved('  «Zürich»,  ')).toBe('Zürich (ch)');
    expect(resolved('(Wien)')).toBe('Wien (at)');
    expect(resolvePlace('')).toBeUndefined();
    expect(resolvePlace('  - ')).toBeUndefined();
  });

  it('prefers an exact main name over a larger place listing it as an alternate', () => {
    expect(resolved('Verl')).toBe('Verl (de)');
    expect(resolved('Bienne')).toBe('Biel/Bienne (ch)');
    expect(resolved('Neuenburg')).toBe('Neuchâtel (ch)');
  });

  it('returns the place record', () => {
    expect(resolvePlace('Zürich')).toMatchObject({ geonameId: 2657896, slug: 'zurich', country: 'ch' });
    expect(placeOf('Zürich').population).toBeGreaterThan(300_000);
  });
});

describe('local names', () => {
  it('finds a city by the name its people call it, beside the names GeoNames holds', () => {
    expect(resolved('Züri')).toBe('Zürich (ch)');
    expect(resolved('Zueri')).toBe('Zürich (ch)');
    expect(resolved('Bärn')).toBe('Bern (ch)');
    expect(resolved('Winti')).toBe('Winterthur (ch)');
    expect(resolved('Sanggale')).toBe('Sankt Gallen (ch)');
    expect(resolved('St. Galle')).toBe('Sankt Gallen (ch)');
    expect(resolved('Schafuuse')).toBe('Schaffhausen (ch)');
    expect(resolved('Lozärn')).toBe('Luzern (ch)');
    expect(resolved('Soledurn')).toBe('Solothurn (ch)');
    // GeoNames' own alternate names.
    expect(resolved('Minga')).toBe('München (de)');
    expect(resolved('Kölle')).toBe('Köln (de)');
  });

  it('reads a local name in a prompt, bare or after a place word, and not a word it folds to', () => {
    expect(matchPlacePhrase(['Züri'], 0)?.place.name).toBe('Zürich');
    expect(matchPlacePhrase(['Winti'], 0)?.place.name).toBe('Winterthur');
    // "Bärn" folds to "barn": the English word is no Bern.
    expect(resolvePlace('barn')).toBeUndefined();
    expect(matchPlacePhrase(['barn'], 0)).toBeUndefined();
  });
});

describe('placeBySlug', () => {
  it.each([
    ['ch', 'zurich', 'Zürich'],
    ['ch', 'geneve', 'Genève'],
    ['de', 'munchen', 'München'],
    ['at', 'wien', 'Wien'],
    ['de', 'koln', 'Köln'],
  ] as const)('%s/%s → %s', (country, slug, name) => {
    expect(placeBySlug(country, slug)?.name).toBe(name);
    expect(resolvePlace(name)?.slug).toBe(slug);
  });

  it('gives a contested slug to the most populous place and scopes slugs by country', () => {
    expect(placeBySlug('de', 'neustadt')?.population).toBeGreaterThan(50_000);
    expect(placeBySlug('ch', 'wien')).toBeUndefined();
    expect(placeBySlug('de', 'no-such-place')).toBeUndefined();
  });
});

describe('matchPlacePhrase', () => {
  const match = (text: string, start = 0) => {
    const m = matchPlacePhrase(text.split(' '), start);
    return m && { name: m.place.name, length: m.length };
  };

  it('matches the longest run of up to four tokens', () => {
    expect(match('Sankt Gallen')).toEqual({ name: 'Sankt Gallen', length: 2 });
    expect(match('St. Gallen Meetup')).toEqual({ name: 'Sankt Gallen', length: 2 });
    expect(match('Frankfurt am Main')).toEqual({ name: 'Frankfurt am Main', length: 3 });
    expect(match('La Chaux-de-Fonds')).toEqual({ name: 'La Chaux-de-Fonds', length: 2 });
    expect(match('Rust Meetup Zürich', 2)).toEqual({ name: 'Zürich', length: 1 });
    expect(match('Berlin')).toEqual({ name: 'Berlin', length: 1 });
  });

  it.each(
    'online home start mitte ende wochenende semaine day week ai ki data tech web sales rust go java python react security cloud summit meetup conference konferenz free gratis in am near next one rain valley'.split(
      ' ',
    ),
  )('never reads the common word %j as a place', (word) => {
    expect(matchPlacePhrase([word], 0)).toBeUndefined();
    expect(matchPlacePhrase([word[0]!.toUpperCase() + word.slice(1)], 0)).toBeUndefined();
  });

  it('returns undefined when nothing matches or start is out of range', () => {
    expect(matchPlacePhrase(['Paris'], 0)).toBeUndefined();
    expect(matchPlacePhrase(['Zürich'], 1)).toBeUndefined();
    expect(matchPlacePhrase(['Zürich'], -1)).toBeUndefined();
  });
});

describe('geography', () => {
  it('measures great-circle distances', () => {
    const zurich = placeOf('Zürich');
    const from = (place: { lat: number; lng: number }) => distanceKm(zurich, place.lat, place.lng);
    expect(from(zurich)).toBe(0);
    expect(from(placeOf('Winterthur'))).toBeGreaterThan(20);
    expect(from(placeOf('Winterthur'))).toBeLessThan(25);
    expect(from(placeOf('Basel'))).toBeGreaterThan(70);
    expect(from(placeOf('Basel'))).toBeLessThan(80);
  });

  it.each([
    ['Zürich', 47.3769, 8.5417, 'ch'],
    ['Berlin', 52.52, 13.405, 'de'],
    ['Wien', 48.2085, 16.3721, 'at'],
    ['Paris', 48.8566, 2.3522, undefined],
    ['Konstanz', 47.6603, 9.1758, 'de'],
    ['Kreuzlingen', 47.6505, 9.175, 'ch'],
  ])('countryOfPoint(%s) = %s', (_name, lat, lng, country) => {
    expect(countryOfPoint(lat, lng)).toBe(country);
  });

  it('places every country centroid inside its country', () => {
    for (const country of ['ch', 'de', 'at'] as const) {
      const { lat, lng } = countryCentroid(country);
      expect(countryOfPoint(lat, lng)).toBe(country);
    }
  });
});
