import ICAL from 'ical.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { shortDescription } from './enrich.js';
import { readLocation } from './ical-location.js';
import { type IcalComponent, type Occurrence, occurrencesOf } from './ical-time.js';
import {
  FILE_RECORD,
  type ImportedRecord,
  type Importer,
  type ParseOptions,
  type ParseResult,
  type RecordError,
} from './importer.js';

const TITLE_MAX = 300;

const text = (c: IcalComponent, name: string): string | undefined => {
  const value = c.getFirstPropertyValue(name);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** `"Summary" (UID)`, so a skipped record can be found in the feed. */
function labelOf(c: IcalComponent, index: number): string {
  const summary = text(c, 'summary');
  const uid = text(c, 'uid');
  return `${summary ? `"${summary}"` : `VEVENT #${index + 1}`}${uid ? ` (${uid})` : ''}`;
}

const isHttpUrl = (s: string | undefined): s is string => !!s && /^https?:\/\/[^\s/]+/i.test(s);

/** The event link: URL (the instance's, else its series'), else the first link in the description (Luma, Meetup). */
function urlOf(components: IcalComponent[], description: string | undefined): string | undefined {
  const url = components.map((c) => text(c, 'url')).find(isHttpUrl);
  return url ?? description?.match(/https?:\/\/[^\s<>"')\]]+/i)?.[0].replace(/[.,;:!?]+$/, '');
}

/** Calendar names often read "Events - <group>"; the group is the organizer. */
const calendarOrganizer = (name: string | undefined) => name?.replace(/^events?\s*[-–:]\s*/i, '').trim() || undefined;

/**
 * Parses the feed; when one VEVENT has a syntax error, each VEVENT is parsed on its own (with the calendar's
 * VTIMEZONEs), so one broken block is reported instead of losing the whole feed.
 */
function parseFeed(raw: string, errors: RecordError[]): IcalComponent | undefined {
  const input = raw.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(input)) {
    errors.push({ record: FILE_RECORD, message: 'not an iCalendar feed (no BEGIN:VCALENDAR)' });
    return undefined;
  }
  try {
    const jcal = ICAL.parse(input);
    // Concatenated calendars parse to a list; the first is the feed.
    return new ICAL.Component(Array.isArray(jcal[0]) ? jcal[0] : jcal);
  } catch {
    // fall through to block-wise parsing
  }
  const blocks = input.match(/^BEGIN:VEVENT\r?\n[\s\S]*?^END:VEVENT\r?$/gim) ?? [];
  const skeleton = input.replace(/^BEGIN:VEVENT\r?\n[\s\S]*?^END:VEVENT\r?\n?/gim, '');
  let calendar: IcalComponent;
  try {
    calendar = new ICAL.Component(ICAL.parse(skeleton));
  } catch (error) {
    errors.push({ record: FILE_RECORD, message: `not a valid iCalendar feed: ${(error as Error).message}` });
    return undefined;
  }
  const head = skeleton.replace(/^END:VCALENDAR\s*$/im, '');
  blocks.forEach((block, index) => {
    try {
      const one = new ICAL.Component(ICAL.parse(`${head}${block}\r\nEND:VCALENDAR\r\n`));
      const vevent = one.getFirstSubcomponent('vevent');
      if (vevent) calendar.addSubcomponent(vevent);
    } catch (error) {
      const summary = block.match(/^SUMMARY[^:\r\n]*:(.*)$/im)?.[1]?.trim();
      const uid = block.match(/^UID[^:\r\n]*:(.*)$/im)?.[1]?.trim();
      const label = `${summary ? `"${summary}"` : `VEVENT block #${index + 1}`}${uid ? ` (${uid})` : ''}`;
      errors.push({ record: label, message: `unreadable: ${(error as Error).message}` });
    }
  });
  return calendar;
}

interface Series {
  master?: IcalComponent;
  exceptions: IcalComponent[];
}

const sequenceOf = (c: IcalComponent) => Number(c.getFirstPropertyValue('sequence') ?? 0) || 0;

/** VEVENTs by UID: one master (the highest SEQUENCE wins a repeat) and its overridden instances. */
function groupByUid(vevents: IcalComponent[]): Map<string, Series> {
  const byUid = new Map<string, Series>();
  vevents.forEach((c, index) => {
    const uid =
      text(c, 'uid') ??
      `${text(c, 'summary') ?? `#${index + 1}`}@${c.getFirstProperty('dtstart')?.toICALString() ?? ''}`;
    const series = byUid.get(uid) ?? { exceptions: [] };
    byUid.set(uid, series);
    if (c.hasProperty('recurrence-id')) series.exceptions.push(c);
    else if (!series.master || sequenceOf(c) >= sequenceOf(series.master)) series.master = c;
  });
  return byUid;
}

const categoriesOf = (c: IcalComponent) => c.getAllProperties('categories').flatMap((p) => p.getValues().map(String));
const organizerOf = (c: IcalComponent) => {
  const cn = c.getFirstProperty('organizer')?.getParameter('cn');
  return typeof cn === 'string' && cn.trim() ? cn.trim() : undefined;
};

/**
 * One occurrence as a record: the overriding instance's fields; its series' link, categories and organizer when the
 * override omits them (many producers write only what changed).
 */
function recordOf(
  occurrence: Occurrence,
  master: IcalComponent,
  sourceId: string,
  context: ParseOptions & { calendarName: string | undefined },
): ImportedRecord {
  const item = occurrence.item;
  const title = text(item, 'summary') ?? text(master, 'summary') ?? '';
  const description = text(item, 'description');
  const geo = item.getFirstPropertyValue('geo') as [number, number] | null;
  const hasGeo = Array.isArray(geo) && geo.every(Number.isFinite);
  const place = readLocation(text(item, 'location'), hasGeo, context.defaultCountry);
  const status = (text(item, 'status') ?? text(master, 'status'))?.toUpperCase();
  return {
    sourceId,
    title: title.slice(0, TITLE_MAX),
    description: shortDescription(description) ?? undefined,
    start: occurrence.start,
    end: occurrence.end,
    city: place.city,
    country: place.country,
    venue: place.venue,
    format: place.format,
    topicHints: categoriesOf(item).length > 0 ? categoriesOf(item) : categoriesOf(master),
    organizer: organizerOf(item) ?? organizerOf(master) ?? context.calendarName,
    url: urlOf([item, master], description),
    lat: hasGeo ? geo[0] : undefined,
    lng: hasGeo ? geo[1] : undefined,
    cancelled: status === 'CANCELLED',
  };
}

/** RFC 5545 feeds: Meetup groups, Luma calendars, any `.ics`. See docs/operations.md, "Importing and syncing". */
export const icalImporter: Importer = {
  format: 'ical',
  calendar: true,
  description: 'iCalendar (RFC 5545) feed: VEVENTs with time zones, recurrence and cancellations',
  parse(input: string, options: ParseOptions): ParseResult {
    const errors: RecordError[] = [];
    const records: ImportedRecord[] = [];
    const calendar = parseFeed(input, errors);
    if (!calendar) return { records, errors };
    // Floating times are local time where the event is; ch, de and at share one zone rule (CET/CEST).
    const floatingZone = COUNTRY_INFO[options.defaultCountry ?? 'ch'].timeZone;
    const calendarName = calendarOrganizer(text(calendar, 'x-wr-calname'));
    const vevents = calendar.getAllSubcomponents('vevent');
    const index = new Map(vevents.map((c, i) => [c, i]));
    for (const [uid, series] of groupByUid(vevents)) {
      // Overridden instances without their series stand alone.
      const units = series.master
        ? [{ master: series.master, exceptions: series.exceptions }]
        : series.exceptions.map((e) => ({ master: e, exceptions: [] }));
      for (const unit of units) {
        const label = labelOf(unit.master, index.get(unit.master) ?? 0);
        try {
          if (!text(unit.master, 'summary')) throw new Error('no SUMMARY');
          for (const occurrence of occurrencesOf(unit.master, unit.exceptions, { now: options.now, floatingZone })) {
            const sourceId = occurrence.recurrenceKey ? `${uid}#${occurrence.recurrenceKey}` : uid;
            records.push(recordOf(occurrence, unit.master, sourceId, { ...options, calendarName }));
          }
        } catch (error) {
          errors.push({ record: label, message: (error as Error).message });
        }
      }
    }
    return { records, errors };
  },
};
