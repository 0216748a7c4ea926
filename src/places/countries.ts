/** The three countries the catalogue serves, with what follows from each. */
export const COUNTRIES = ['ch', 'de', 'at'] as const;
export type Country = (typeof COUNTRIES)[number];

export interface CountryInfo {
  code: Country;
  name: string;
  timeZone: string;
  currency: 'CHF' | 'EUR';
}

export const COUNTRY_INFO: Record<Country, CountryInfo> = {
  ch: { code: 'ch', name: 'Switzerland', timeZone: 'Europe/Zurich', currency: 'CHF' },
  de: { code: 'de', name: 'Germany', timeZone: 'Europe/Berlin', currency: 'EUR' },
  at: { code: 'at', name: 'Austria', timeZone: 'Europe/Vienna', currency: 'EUR' },
};

export function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}

/** Country names in en/de/fr/it, folded (lower case, no accents): "Schweiz", "Suisse", "Österreich", "Germany"… */
const COUNTRY_NAMES: Readonly<Record<string, Country>> = {
  switzerland: 'ch',
  schweiz: 'ch',
  suisse: 'ch',
  svizzera: 'ch',
  germany: 'de',
  deutschland: 'de',
  allemagne: 'de',
  germania: 'de',
  austria: 'at',
  osterreich: 'at',
  oesterreich: 'at',
  autriche: 'at',
};

/** The country a folded name stands for, if any. */
export function countryNamed(folded: string): Country | undefined {
  return Object.hasOwn(COUNTRY_NAMES, folded) ? COUNTRY_NAMES[folded] : undefined;
}
