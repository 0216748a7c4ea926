import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { COUNTRY_INFO } from '../places/countries.js';
import { CALENDAR_LIMITS, firstEvents } from './calendar-limits.js';
import { shortDescription } from './enrich.js';
import { decodeEntities } from './html-text.js';
import { type EventPlace, readEventPlace } from './ical-location.js';
import { isLumaUid, type LumaEvent, lumaPlace, readLuma } from './ical-luma.js';
import {
  EXPANSION_MONTHS,
  type ExpansionBudget,
  expandOccurrences,
  type IcalComponent,
  MAX_INSTANCES,
  MAX_STEPS,
  type Occurrence,
} from './ical-time.js';
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

/** The first link in a description (Meetup's older feeds, many others), without the sentence's last mark. */
const urlOf = (description: string | undefined): string | undefined =>
  description?.match(/https?:\/\/[^\s<>"')\]]+/i)?.[0].replace(/[.,;:!?]+$/, '');

/** Calendar names often read "Events - <group>"; the group is the organizer. */
const calendarOrganizer = (name: string | undefined) => name?.replace(/^events?\s*[-–:]\s*/i, '').trim() || undefined;

/**
 * Why a calendar or one of its events could not be read, in words for its host: ical.js says what is wrong in its own
 * errors; a TypeError or RangeError from inside it (a component nested where none belongs, a value of a shape it does
 * not expect) names only its code, so the host is told what kind of thing is wrong instead.
 */
function readableError(error: unknown, what: string): string {
  const internal = error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
  if (!internal && error instanceof Error) return error.message;
  return `${what} is not well-formed iCalendar (a component nested where RFC 5545 allows none, or a value of the wrong shape)`;
}

/** A feed up to this size is parsed in one go; a larger one block by block, in steps (see parseSteps). */
const WHOLE_PARSE_CHARS = 256 * 1024;
/** VEVENT blocks parsed between two yields of a feed parsed block by block. */
const BLOCKS_PER_YIELD = 50;

/**
 * Parses the feed; when one VEVENT has a syntax error, or the feed is large, each VEVENT is parsed on its own (with
 * the calendar's VTIMEZONEs), so one broken block is reported instead of losing the whole feed, and a large feed is
 * parsed in steps.
 */
function* parseFeed(raw: string, errors: RecordError[]): Generator<void, IcalComponent | undefined> {
  const input = raw.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(input)) {
    errors.push({ record: FILE_RECORD, message: 'not an iCalendar feed (no BEGIN:VCALENDAR)' });
    return undefined;
  }
  if (input.length <= WHOLE_PARSE_CHARS) {
    try {
      const jcal = ICAL.parse(input);
      // Concatenated calendars parse to a list; the first is the feed.
      return new ICAL.Component(Array.isArray(jcal[0]) ? jcal[0] : jcal);
    } catch {
      // fall through to block-wise parsing
    }
  }
  const blocks: string[] = [];
  const gaps: string[] = [];
  const vevent = /^BEGIN:VEVENT\r?\n[\s\S]*?^END:VEVENT\r?$\n?/gim;
  let from = 0;
  for (let match = vevent.exec(input); match; match = vevent.exec(input)) {
    gaps.push(input.slice(from, match.index));
    blocks.push(match[0]);
    from = match.index + match[0].length;
    if (blocks.length % BLOCKS_PER_YIELD === 0) yield;
  }
  gaps.push(input.slice(from));
  const skeleton = gaps.join('');
  let calendar: IcalComponent;
  try {
    calendar = new ICAL.Component(ICAL.parse(skeleton));
  } catch (error) {
    errors.push({
      record: FILE_RECORD,
      message: `not a valid iCalendar feed: ${readableError(error, 'its structure')}`,
    });
    return undefined;
  }
  const head = skeleton.replace(/^END:VCALENDAR\s*$/im, '');
  for (const [index, block] of blocks.entries()) {
    if (index % BLOCKS_PER_YIELD === BLOCKS_PER_YIELD - 1) yield;
    try {
      const one = new ICAL.Component(ICAL.parse(`${head}${block.replace(/\r?\n?$/, '')}\r\nEND:VCALENDAR\r\n`));
      const vevent = one.getFirstSubcomponent('vevent');
      if (vevent) calendar.addSubcomponent(vevent);
    } catch (error) {
      const summary = block.match(/^SUMMARY[^:\r\n]*:(.*)$/im)?.[1]?.trim();
      const uid = block.match(/^UID[^:\r\n]*:(.*)$/im)?.[1]?.trim();
      const label = `${summary ? `"${summary}"` : `VEVENT block #${index + 1}`}${uid ? ` (${uid})` : ''}`;
      errors.push({ record: label, message: `unreadable: ${readableError(error, 'this VEVENT')}` });
    }
  }
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
  const summary = text(item, 'summary') ?? text(master, 'summary') ?? '';
  const description = text(item, 'description');
  const geoValue = item.getFirstPropertyValue('geo') as [number, number] | null;
  const geo =
    Array.isArray(geoValue) && geoValue.every(Number.isFinite) ? { lat: geoValue[0], lng: geoValue[1] } : undefined;
  const location = text(item, 'location');
  const luma = isLumaUid(text(item, 'uid') ?? text(master, 'uid')) ? readLuma(description, location) : undefined;
  // Luma writes its titles' ampersands as HTML does ("Cities &amp; States").
  const title = luma ? decodeEntities(summary) : summary;
  const place = luma
    ? lumaPlace(luma, geo, context.defaultCountry)
    : readEventPlace({
        location,
        hasGeo: geo !== undefined,
        geo,
        title,
        description,
        preferred: context.defaultCountry,
      });
  const status = (text(item, 'status') ?? text(master, 'status'))?.toUpperCase();
  return {
    sourceId,
    title: title.slice(0, TITLE_MAX),
    description: shortDescription(luma ? luma.description : description) ?? undefined,
    start: occurrence.start,
    end: occurrence.end,
    city: place.city,
    country: place.country,
    venue: place.venue,
    format: place.format,
    placeFrom: place.from,
    topicHints: categoriesOf(item).length > 0 ? categoriesOf(item) : categoriesOf(master),
    organizer: organizerIn(item, master, context.calendarName, luma),
    url: linkOf([item, master], description, luma, place),
    lat: geo?.lat,
    lng: geo?.lng,
    cancelled: status === 'CANCELLED',
  };
}

/** Luma's ORGANIZER is the host who made the event, often a person: its calendar's name speaks for the group. */
function organizerIn(
  item: IcalComponent,
  master: IcalComponent,
  calendarName: string | undefined,
  luma: LumaEvent | undefined,
): string | undefined {
  if (luma && calendarName) return calendarName;
  return organizerOf(item) ?? organizerOf(master) ?? calendarName;
}

/** The event's link: URL; a Luma event's page; else the first link of the description, or an online event's room. */
function linkOf(
  components: IcalComponent[],
  description: string | undefined,
  luma: LumaEvent | undefined,
  place: EventPlace,
): string | undefined {
  const room = place.format === 'online' ? luma?.locationLink : undefined;
  return components.map((c) => text(c, 'url')).find(isHttpUrl) ?? luma?.link ?? urlOf(description) ?? room;
}

/**
 * The feed's records, yielding between steps of work (blocks parsed, rule steps walked): at most
 * CALENDAR_LIMITS.maxEvents, its recurring series within CALENDAR_LIMITS' budget, and `cut` saying what was left out.
 */
function* parseSteps(input: string, options: ParseOptions): Generator<void, ParseResult> {
  const errors: RecordError[] = [];
  const records: ImportedRecord[] = [];
  const calendar = yield* parseFeed(input, errors);
  if (!calendar) return { records, errors };
  // Floating times are local time where the event is; ch, de and at share one zone rule (CET/CEST).
  const floatingZone = COUNTRY_INFO[options.defaultCountry ?? 'ch'].timeZone;
  const calendarName = calendarOrganizer(text(calendar, 'x-wr-calname'));
  const vevents = calendar.getAllSubcomponents('vevent');
  const index = new Map(vevents.map((c, i) => [c, i]));
  const budget: ExpansionBudget = { occurrences: CALENDAR_LIMITS.maxOccurrences, steps: CALENDAR_LIMITS.maxRuleSteps };
  for (const [uid, series] of groupByUid(vevents)) {
    // Overridden instances without their series stand alone.
    const units = series.master
      ? [{ master: series.master, exceptions: series.exceptions }]
      : series.exceptions.map((e) => ({ master: e, exceptions: [] }));
    for (const unit of units) {
      if (budget.cut) break;
      const label = labelOf(unit.master, index.get(unit.master) ?? 0);
      try {
        if (!text(unit.master, 'summary')) throw new Error('no SUMMARY');
        const expand = { now: options.now, floatingZone };
        for (const occurrence of yield* expandOccurrences(unit.master, unit.exceptions, expand, budget)) {
          const sourceId = occurrence.recurrenceKey ? `${uid}#${occurrence.recurrenceKey}` : uid;
          records.push(recordOf(occurrence, unit.master, sourceId, { ...options, calendarName }));
        }
      } catch (error) {
        errors.push({ record: label, message: readableError(error, 'this VEVENT') });
      }
      yield;
    }
  }
  const cuts: string[] = [];
  if (budget.cut === 'occurrences')
    cuts.push(`its recurring events repeat more than ${CALENDAR_LIMITS.maxOccurrences} times in all`);
  if (budget.cut === 'steps')
    cuts.push(`its recurrence rules take more than ${CALENDAR_LIMITS.maxRuleSteps} steps to expand`);
  const capped = budget.capped;
  if (capped?.instances)
    cuts.push(
      `${seriesCount(capped.instances)} more than ${MAX_INSTANCES} times within the coming ${EXPANSION_MONTHS} months, ` +
        `each kept to its first ${MAX_INSTANCES}`,
    );
  if (capped?.steps)
    cuts.push(
      `${capped.steps === 1 ? 'a recurrence rule takes' : `${capped.steps} recurrence rules take`} more than ` +
        `${MAX_STEPS} steps to walk, each kept to the occurrences found by then`,
    );
  const kept = firstEvents(records, CALENDAR_LIMITS.maxEvents, options.now);
  if (kept) cuts.push(`it has ${records.length} events, more than ${CALENDAR_LIMITS.maxEvents}`);
  if (cuts.length === 0) return { records, errors };
  const result = kept ?? records;
  return { records: result, errors, cut: `cut to its first ${result.length} events: ${cuts.join('; ')}` };
}

const seriesCount = (n: number) => (n === 1 ? 'a recurring series repeats' : `${n} recurring series repeat`);

/** DTSTAMP is when the answer was made (Meetup: the time of the request), not news about an event. */
const PER_REQUEST = /^DTSTAMP[;:][^\r\n]*\r?\n?/gim;

/** RFC 5545 feeds: Meetup groups, Luma calendars, any `.ics`. See docs/operations.md, "Importing and syncing". */
export const icalImporter: Importer = {
  format: 'ical',
  calendar: true,
  what: 'an iCalendar feed',
  description: 'iCalendar (RFC 5545) feed: VEVENTs with time zones, recurrence and cancellations',
  parse(input: string, options: ParseOptions): ParseResult {
    const steps = parseSteps(input, options);
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
    }
  },
  digest(input) {
    return createHash('sha256').update(input.replace(PER_REQUEST, '')).digest('base64url');
  },
  async parseInSteps(input, options, pause) {
    const steps = parseSteps(input, options);
    let stepStarted = performance.now();
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      if (performance.now() - stepStarted < STEP_MS) continue;
      await pause();
      stepStarted = performance.now();
    }
  },
};

/** The longest a step of parseInSteps runs before it pauses: short enough not to hold requests up. */
const STEP_MS = 8;
