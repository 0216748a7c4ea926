import { z } from 'zod';
import type { ImportedRecord, Importer, RecordError } from './importer.js';

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
  confsTechTopics: z.array(z.string()).optional(),
  topics: z.array(z.string()).optional(),
  twitter: z.string().optional(),
});

/** The organizer: confs.tech names none, so the conference's own web host stands in (e.g. "basta.net"). */
function organizerOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

/**
 * confs.tech JSON (an array of conferences with local start/end dates). Conferences are all-day events;
 * `online: true` with a city means hybrid. The source id is name + start date, stable across re-imports.
 */
export const confsTechImporter: Importer = {
  format: 'confs-tech',
  description: 'confs.tech conference JSON (array of {name, url, startDate, endDate, city, country, online, …})',
  parse(input) {
    const errors: RecordError[] = [];
    const records: ImportedRecord[] = [];
    let rows: unknown;
    try {
      rows = JSON.parse(input);
    } catch (error) {
      return { records, errors: [{ record: '(file)', message: `not valid JSON: ${(error as Error).message}` }] };
    }
    if (!Array.isArray(rows)) return { records, errors: [{ record: '(file)', message: 'expected a JSON array' }] };
    rows.forEach((row, index) => {
      const parsed = confsTechRow.safeParse(row);
      const label = `#${index + 1}${typeof (row as { name?: unknown })?.name === 'string' ? ` "${(row as { name: string }).name}"` : ''}`;
      if (!parsed.success) {
        errors.push({
          record: label,
          message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        return;
      }
      const c = parsed.data;
      if (c.endDate && c.endDate < c.startDate) {
        errors.push({ record: label, message: 'endDate is before startDate' });
        return;
      }
      records.push({
        sourceId: `${c.name}@${c.startDate}`,
        title: c.name,
        start: { date: c.startDate },
        end: { date: c.endDate ?? c.startDate },
        city: c.city,
        country: c.country,
        format: c.city ? (c.online ? 'hybrid' : 'in_person') : 'online',
        topicHints: c.confsTechTopics ?? c.topics,
        organizer: organizerOf(c.url),
        url: c.url,
      });
    });
    return { records, errors };
  },
};
