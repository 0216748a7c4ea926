import { DateTime } from 'luxon';
import { plainContentOf } from '../catalogue/event.js';
import { type EventSubmission, eventSubmissionSchema, fieldErrors } from '../catalogue/submission.js';
import { cleanImportedValues } from '../catalogue/text.js';
import { countryOfPoint } from '../places/gazetteer.js';
import type { ImportedRecord, Importer, ParseResult, RecordError } from './importer.js';

/** Checks the write API makes after the schema (in resolveSubmission), so a line is refused for the same reasons. */
function pointError(lat: number | undefined, lng: number | undefined, country: string | undefined): string | undefined {
  if (lat === undefined || lng === undefined) return undefined;
  const pointCountry = countryOfPoint(lat, lng);
  if (!pointCountry) return 'lat: the point is not in Switzerland, Germany or Austria';
  if (country && pointCountry !== country) return `lat: the point is in ${pointCountry}, not in ${country}`;
  return undefined;
}

/** Lines parsed between two pauses of `parseInSteps`: a step short enough not to hold requests up. */
const LINES_PER_STEP = 250;

/**
 * JSON lines in our own submission shape (docs/contract.md, An event, as written, plus the documented extensions), validated by the same schema
 * as POST /api/events; `externalId` is required on every line and is the source id. Blank lines are ignored.
 */
export const jsonlImporter: Importer = {
  format: 'jsonl',
  description: 'JSON lines, one event submission (as POST /api/events, with externalId) per line',
  parse(input) {
    const parser = lineParser();
    linesOf(input).forEach(parser.line);
    return parser.result;
  },
  async parseInSteps(input, _options, pause) {
    const parser = lineParser();
    const lines = linesOf(input);
    for (let from = 0; from < lines.length; from += LINES_PER_STEP) {
      if (from > 0) await pause();
      for (let index = from; index < Math.min(lines.length, from + LINES_PER_STEP); index++) {
        parser.line(lines[index]!, index);
      }
    }
    return parser.result;
  },
};

const linesOf = (input: string) => input.replace(/^\uFEFF/, '').split(/\r?\n/);

/** Reads one line at a time into `result`: the records and the errors, each error naming its line. */
function lineParser(): { line(line: string, index: number): void; result: ParseResult } {
  const records: ImportedRecord[] = [];
  const errors: RecordError[] = [];
  const seen = new Map<string, number>();
  return {
    result: { records, errors },
    line(line, index) {
      const record = `line ${index + 1}`;
      if (!line.trim()) return;
      const read = submissionOf(line);
      if (typeof read === 'string') {
        errors.push({ record, message: read });
        return;
      }
      const problem =
        read.externalId === undefined
          ? 'externalId: is required (it is the source id of the line)'
          : seen.has(read.externalId)
            ? `externalId: "${read.externalId}" is already used on line ${seen.get(read.externalId)}`
            : pointError(read.lat, read.lng, read.country);
      if (problem || read.externalId === undefined) {
        errors.push({ record, message: problem ?? '' });
        return;
      }
      seen.set(read.externalId, index + 1);
      records.push(recordOf(read, read.externalId));
    },
  };
}

/**
 * The line's submission, or why it is not one (not JSON, or refused by the schema). Its text is an import's: what no
 * output may carry is removed first (catalogue/text.ts), where the write API would refuse it.
 */
function submissionOf(line: string): EventSubmission | string {
  let json: unknown;
  try {
    json = cleanImportedValues(JSON.parse(line));
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  const parsed = eventSubmissionSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return fieldErrors(parsed.error, json)
    .map((e) => `${e.field}: ${e.message}`)
    .join('; ');
}

function recordOf(s: EventSubmission, sourceId: string): ImportedRecord {
  return {
    sourceId,
    title: s.title,
    description: s.description,
    start: timeOf(s.startAt, s.allDay),
    end: s.endAt ? endOf(s.startAt, s.endAt, s.allDay) : undefined,
    city: s.city,
    country: s.country,
    venue: s.venue,
    format: s.format,
    topics: s.topics && [...new Set(s.topics)],
    seniority: s.seniority && [...new Set(s.seniority)],
    organizer: s.organizer,
    url: s.url,
    lat: s.lat,
    lng: s.lng,
    price: s.price,
    priceAmount: s.priceAmount,
    regMode: s.regMode,
    capacity: s.capacity,
    visibility: s.visibility,
    cfpUrl: s.cfpUrl,
    cfpUntil: s.cfpUntil,
    ...plainContentOf(s),
  };
}

/** A submission's time as a record's: with allDay, the local date as written (end inclusive); else the instant. */
function timeOf(value: string, allDay: boolean | undefined): { instant: Date } | { date: string } {
  const parsed = DateTime.fromISO(value, { setZone: true });
  return allDay ? { date: parsed.toISODate()! } : { instant: parsed.toJSDate() };
}

/** An all-day end given as a date-time at midnight ends the day before (never before the start), as calendars mean it. */
function endOf(startAt: string, endAt: string, allDay: boolean | undefined): { instant: Date } | { date: string } {
  const end = timeOf(endAt, allDay);
  if (!('date' in end) || /^\d{4}-\d{2}-\d{2}$/.test(endAt)) return end;
  const at = DateTime.fromISO(endAt, { setZone: true });
  const before = at.minus({ days: 1 }).toISODate()!;
  const first = DateTime.fromISO(startAt, { setZone: true }).toISODate()!;
  return at.equals(at.startOf('day')) && before >= first ? { date: before } : end;
}
