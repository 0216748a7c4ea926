import { z } from 'zod';
import { type Importer, jsonArrayRows, languageOf, recordsOfRows } from './importer.js';

/** A row of the open confs.tech data set (tech-conferences/conference-data). */
const confsTechRow = z.object({
  name: z.string().min(1),
  url: z.string().url(),
  startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  endDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  online: z.boolean().optional(),
  locales: z.string().optional(),
  cfpUrl: z.string().optional(),
  cfpEndDate: z.string().optional(),
  confsTechTopics: z.array(z.string()).optional(),
  topics: z.array(z.string()).optional(),
  twitter: z.string().optional(),
  offersSignLanguageOrCC: z.boolean().optional(),
});

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The repository keeps one file per year and topic (`conferences/2026/javascript.json`): the name is the topic. */
export function topicOfPath(path: string | undefined): string | undefined {
  return path?.match(/(?:^|\/)\d{4}\/([a-z0-9-]+)\.json$/)?.[1];
}

/** An http(s) link, else nothing: a broken CFP link costs the record its CFP, not its listing. */
function httpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return /^https?:$/.test(new URL(value).protocol) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The organizer: confs.tech names none, so the conference's own web host stands in (e.g. "basta.net"). */
function organizerOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

/**
 * confs.tech JSON (an array of conferences with local start/end dates). Conferences are all-day events;
 * `online: true` with a city means hybrid. The source id is name + start date, stable across re-imports, so the
 * same conference in several topic files is one record (the feed merges their topics). Topics come from the rows
 * (`confsTechTopics`, as the shipped seed has them) or else from the file name.
 */
export const confsTechImporter: Importer = {
  format: 'confs-tech',
  description: 'confs.tech conference JSON (array of {name, url, startDate, endDate, city, country, online, …})',
  worldwide: true,
  parse(input, options) {
    const fileTopic = topicOfPath(options.inputName);
    return recordsOfRows(jsonArrayRows(input), confsTechRow, (c) => {
      if (c.endDate && c.endDate < c.startDate) return 'endDate is before startDate';
      return {
        sourceId: `${c.name}@${c.startDate}`,
        title: c.name,
        start: { date: c.startDate },
        end: { date: c.endDate ?? c.startDate },
        city: c.city,
        country: c.country,
        format: c.city ? (c.online ? 'hybrid' : 'in_person') : 'online',
        topicHints: c.confsTechTopics ?? c.topics ?? (fileTopic ? [fileTopic] : undefined),
        organizer: organizerOf(c.url),
        url: c.url,
        cfpUrl: httpUrl(c.cfpUrl),
        cfpUntil: c.cfpEndDate && DATE.test(c.cfpEndDate) ? c.cfpEndDate : undefined,
        language: languageOf(c.locales),
        accessibility: c.offersSignLanguageOrCC ? 'sign-language-or-captions' : undefined,
      };
    });
  },
};
