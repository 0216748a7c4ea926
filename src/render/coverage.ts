import { z } from 'zod';
import { COUNTRIES, COUNTRY_INFO, type Country } from '../places/countries.js';
import { COVERAGE_CODES, type Coverage, type CoverageSource } from '../use-cases/coverage.js';

const perCountry = <T extends z.ZodType>(value: T) => z.object({ ch: value, de: value, at: value });

/** `coverage` of a list response: why the answer may be thin that is not the prompt's doing, and what exists. */
export const coverageSchema = z
  .object({
    code: z
      .enum(COVERAGE_CODES)
      .describe(
        'The most pressing reason: `sources-not-read` (sources or calendars the query draws on never read), `sources-failing` (their reads fail), `few-upcoming` (only shipped snapshots over a month old, and few upcoming events in the countries searched)',
      ),
    message: z.string().describe('The same in one or two English sentences, with what the catalogue holds instead'),
    countries: z.array(z.enum(COUNTRIES)).describe('The countries searched'),
    sources: z
      .array(
        z.object({
          source: z.string(),
          state: z.enum(['not-read', 'failing', 'snapshot']),
          calendars: z.number().int().optional().describe('A feed of calendars: how many of them are in this state'),
          names: z.array(z.string()).optional().describe('Those calendars, by name'),
          countries: z
            .array(z.enum(COUNTRIES))
            .optional()
            .describe('The countries of those calendars (empty: calendars for any country)'),
          lastSuccess: z.string().nullable().optional().describe('Failing: the last successful read (null: never)'),
          lastError: z.string().nullable().optional(),
          snapshotOf: z.string().nullable().optional().describe('The date of the data of its shipped snapshot'),
        }),
      )
      .describe('The sources the query draws on whose data is missing or old, as /api/sources shows them'),
    sync: z.enum(['on', 'off']).describe('Whether this service syncs its feeds (off: SYNC_INTERVAL_MINUTES=0)'),
    upcoming: perCountry(z.number().int()).describe('Upcoming events held per country'),
    months: perCountry(z.array(z.string())).describe(
      'Per country, the months (YYYY-MM) of its next upcoming events, soonest first',
    ),
    sourcesPage: z.string().describe('The page of every source’s state'),
  })
  .describe(
    'Present when the answer may be thin for want of data, not because of the query: sources not read yet or failing, or only snapshots over a month old while few events are upcoming there. Absent when coverage is fine.',
  );
export type CoverageView = z.output<typeof coverageSchema>;

const plural = (n: number, one: string, other = `${one}s`) => `${n} ${n === 1 ? one : other}`;

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "Dec 2026": a YYYY-MM month in English. */
export function monthLabel(month: string, locale = 'en'): string {
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

function what(s: CoverageSource): string {
  if (s.calendars === undefined) return s.source;
  const where = s.countries?.length ? ` for ${list(s.countries.map((c) => COUNTRY_INFO[c].name))}` : '';
  return `${plural(s.calendars, `“${s.source}” calendar`)}${where}`;
}

/** The sentence an answer carries: what is unread, failing or old, what the catalogue holds, and where to see more. */
export function coverageMessage(coverage: Coverage, baseUrl: string): string {
  return `${coverageText(coverage)} Every source’s state: ${baseUrl}/sources`;
}

/** What is unread, failing or old, then what the catalogue holds per country (with the months of its next events). */
export function coverageText(coverage: Coverage): string {
  const { sources } = coverage;
  const sentences: string[] = [];
  const notRead = sources.filter((s) => s.state === 'not-read');
  if (notRead.length) {
    const why =
      coverage.sync === 'off'
        ? 'feed sync is off in this service (SYNC_INTERVAL_MINUTES=0; `tech-events sync` reads them)'
        : 'the service has not synced them yet';
    sentences.push(`Not read yet: ${list(notRead.map(what))} — ${why}.`);
  }
  const failing = sources.filter((s) => s.state === 'failing');
  if (failing.length) {
    const when = (s: CoverageSource) =>
      s.lastSuccess
        ? `since ${s.lastSuccess.slice(0, 10)}`
        : s.snapshotOf
          ? `(never read; its shipped snapshot of ${s.snapshotOf} is loaded)`
          : '(never read)';
    const one = (s: CoverageSource) =>
      `${what(s)} ${when(s)}${s.lastError ? `: ${s.lastError.replace(/\.$/, '')}` : ''}`;
    sentences.push(`Failing: ${failing.map(one).join('; ')}.`);
  }
  const snapshots = sources.filter((s) => s.state === 'snapshot');
  if (snapshots.length) {
    sentences.push(
      `Only the shipped ${snapshots.length === 1 ? 'snapshot' : 'snapshots'} of ${list(snapshots.map((s) => `${s.source}${s.snapshotOf ? ` (data of ${s.snapshotOf})` : ''}`))} ${snapshots.length === 1 ? 'is' : 'are'} loaded.`,
    );
  }
  sentences.push(`Upcoming events held: ${list(COUNTRIES.map((c) => heldIn(coverage, c)))}.`);
  return sentences.join(' ');
}

function heldIn(coverage: Coverage, country: Country): string {
  const n = coverage.upcoming[country];
  const months = coverage.months[country];
  const name = COUNTRY_INFO[country].name;
  if (n === 0) return `none in ${name}`;
  return `${n} in ${name}${months.length ? ` (${months.map((m) => monthLabel(m)).join(', ')})` : ''}`;
}

export function toCoverageView(coverage: Coverage, baseUrl: string): CoverageView {
  return { ...coverage, message: coverageMessage(coverage, baseUrl), sourcesPage: `${baseUrl}/sources` };
}
