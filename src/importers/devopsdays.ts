import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { shortDescription } from './enrich.js';
import { FILE_RECORD, type ImportedRecord, type Importer, type RecordError } from './importer.js';

/** `2027-04-14`, or a date-time with its offset as the files write them (`2027-04-14T00:00:00+02:00`). */
const WHEN = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A YAML scalar that may be blank (`startdate:` with nothing after it is null), a string, or a number. */
const text = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v).trim() || undefined));

/**
 * The event fields of a devopsdays `main.yml`. Only these are read: the same file lists the organisers with their
 * personal bios (`team_members`), sponsors and the programme, none of which is ever imported.
 */
const devopsdaysEvent = z.object({
  name: z.string().regex(/^\d{4}-[a-z0-9-]+$/, 'must be "<year>-<city>"'),
  city: text,
  event_group: text,
  description: text,
  startdate: text,
  enddate: text,
  cfp_date_end: text,
  cfp_link: text,
  location: text,
  location_address: text,
  coordinates: text,
});

export type DevopsdaysEvent = z.output<typeof devopsdaysEvent>;
/** The fields the seed keeps of each event (and `sourceUrl`, where it was read). */
export const DEVOPSDAYS_FIELDS = Object.keys(devopsdaysEvent.shape) as (keyof DevopsdaysEvent)[];

const httpUrl = (value: string | undefined) => (value && /^https?:\/\/\S+$/i.test(value) ? value : undefined);

/** "46.1758689, 6.1364216" → a point; anything else → none. */
function pointOf(coordinates: string | undefined): { lat: number; lng: number } | undefined {
  const match = coordinates?.match(/^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/);
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lng = Number(match[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : undefined;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One event, or undefined when it has no dates yet (organisers publish the file before booking a venue). */
function recordOf(e: DevopsdaysEvent): ImportedRecord | string | undefined {
  if (!e.startdate) return undefined;
  const start = e.startdate.match(WHEN)?.[1];
  if (!start) return `startdate: "${e.startdate}" is not a date`;
  const end = e.enddate ? e.enddate.match(WHEN)?.[1] : start;
  if (!end) return `enddate: "${e.enddate}" is not a date`;
  if (end < start) return 'enddate is before startdate';
  const city = capitalised(e.city ?? e.name.slice(5).replace(/-/g, ' '));
  const year = e.name.slice(0, 4);
  const page = `https://devopsdays.org/events/${e.name}`;
  const venue = [
    e.location && e.location.toLowerCase() !== city.toLowerCase() ? e.location : undefined,
    e.location_address,
  ]
    .filter(Boolean)
    .join(', ');
  const cfpUntil = e.cfp_date_end && WHEN.test(e.cfp_date_end) ? e.cfp_date_end.replace(' ', 'T') : undefined;
  return {
    sourceId: e.name,
    title: `devopsdays ${city} ${year}`,
    description: shortDescription(e.description) ?? undefined,
    // Dates of the event's own place: all-day, like confs.tech's conferences (the files' clock times are
    // placeholders such as 00:00 and 23:59:59).
    start: { date: start },
    end: { date: end },
    // The event's name city; enrichment places it at the venue's city when the address names one (Zurich's meets in
    // Winterthur), and duplicates take neighbouring cities as one, so confs.tech's "Zurich" listing still meets it.
    city,
    venue: venue || undefined,
    format: 'in_person',
    topicHints: ['devops'],
    organizer: `devopsdays ${e.event_group ?? city}`,
    url: page,
    ...pointOf(e.coordinates),
    cfpUrl: httpUrl(e.cfp_link) ?? (cfpUntil ? `${page}/propose` : undefined),
    cfpUntil,
  };
}

/**
 * devopsdays event data (devopsdays/devopsdays-web, `data/events/<year>/<city>/main.yml`): one YAML file per event,
 * or a list of such events (the shipped seed, JSON being YAML). There is no country field: the city names it.
 */
export const devopsdaysImporter: Importer = {
  format: 'devopsdays',
  description: 'devopsdays main.yml (data/events/<year>/<city>/main.yml), or a list of its events',
  worldwide: true,
  parse(input) {
    const records: ImportedRecord[] = [];
    const errors: RecordError[] = [];
    let doc: unknown;
    try {
      // Hand-edited files repeat keys now and then; the last one wins, as for the site's own generator.
      doc = parseYaml(input, { uniqueKeys: false });
    } catch (error) {
      return { records, errors: [{ record: FILE_RECORD, message: `not valid YAML: ${(error as Error).message}` }] };
    }
    const docs = Array.isArray(doc) ? doc : [doc];
    if (docs.some((d) => typeof d !== 'object' || d === null || Array.isArray(d))) {
      return { records, errors: [{ record: FILE_RECORD, message: 'expected a devopsdays event (a YAML mapping)' }] };
    }
    docs.forEach((d, index) => {
      const name = (d as { name?: unknown }).name;
      const label = typeof name === 'string' ? `"${name}"` : `#${index + 1}`;
      const parsed = devopsdaysEvent.safeParse(d);
      if (!parsed.success) {
        errors.push({
          record: label,
          message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        return;
      }
      const result = recordOf(parsed.data);
      if (typeof result === 'string') errors.push({ record: label, message: result });
      else if (result) records.push(result);
    });
    return { records, errors };
  },
};
