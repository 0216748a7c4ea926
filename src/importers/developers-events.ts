import { z } from 'zod';
import { type Importer, jsonArrayRows, languageOf, recordsOfRows } from './importer.js';

/**
 * A row of developers.events' `all-events.json` (scraly/developers-conferences-agenda). Its days are UTC
 * midnights (milliseconds) standing for the event's local dates.
 */
const developersEvent = z.object({
  name: z.string().trim().min(1),
  date: z.array(z.number().int()).min(1).max(2),
  hyperlink: z.string().optional(),
  location: z.string().optional(),
  city: z.string().optional(),
  country: z.string().optional(),
  cfp: z.object({ link: z.string().optional(), untilDate: z.number().optional() }).partial().optional(),
  status: z.string().optional(),
  tags: z.array(z.object({ key: z.string(), value: z.string() })).optional(),
});

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const httpUrl = (value: string | undefined) => (value && /^https?:\/\/\S+$/i.test(value) ? value : undefined);

/**
 * developers.events JSON: an array of `{name, date: [start, end?], hyperlink, location, city, country, cfp, status,
 * tags}`. Code MIT, but the event data is CC BY-NC 4.0: supported for operators who may use it, never shipped.
 * `country: "Online"` is an online event; "… & Online" in `location` a hybrid one; a status naming a cancellation or
 * postponement cancels. The source id is start date + name, as the data set's own tags file names events.
 */
export const developersEventsImporter: Importer = {
  format: 'developers-events',
  description:
    'developers.events all-events.json (array of {name, date: [startMs, endMs], hyperlink, city, country, …})',
  worldwide: true,
  parse(input) {
    const seen = new Set<string>();
    return recordsOfRows(jsonArrayRows(input), developersEvent, (e) => {
      const start = dayOf(e.date[0]!);
      const end = dayOf(e.date[1] ?? e.date[0]!);
      if (end < start) return 'the end date is before the start date';
      const sourceId = `${start}-${e.name}`;
      // The data set lists a few events twice; the first listing counts.
      if (seen.has(sourceId)) return undefined;
      seen.add(sourceId);
      const online = e.country?.trim().toLowerCase() === 'online';
      const alsoOnline = /&\s*online/i.test(e.location ?? '');
      const city = online ? undefined : e.city?.trim() || undefined;
      const tag = (key: string) => (e.tags ?? []).filter((t) => t.key === key).map((t) => t.value);
      return {
        sourceId,
        title: e.name,
        start: { date: start },
        end: { date: end },
        city,
        country: online ? undefined : e.country?.trim() || undefined,
        format: !city ? 'online' : alsoOnline ? 'hybrid' : 'in_person',
        topicHints: [...tag('tech'), ...tag('topic')],
        organizer: organizerOf(e.hyperlink),
        url: httpUrl(e.hyperlink),
        cancelled: /cancel|postpone/i.test(e.status ?? '') || undefined,
        cfpUrl: httpUrl(e.cfp?.link),
        cfpUntil: e.cfp?.untilDate !== undefined ? dayOf(e.cfp.untilDate) : undefined,
        language: languageOf(tag('language')),
      };
    });
  },
};

/** No organizer field: the event's own web host stands in, as for confs.tech. */
function organizerOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname.replace(/^www\./, '') : undefined;
  } catch {
    return undefined;
  }
}
