import { expectedCrowd } from '../catalogue/crowd.js';
import { withoutForbidden } from '../catalogue/text.js';
import { toQueryString } from '../query/params.js';
import { type SearchResult, zoneOf } from '../query/read-index.js';
import type { Coverage } from '../use-cases/coverage.js';
import { coverageText } from './coverage.js';
import { eventPageUrl } from './event-json.js';
import { sayPhrase } from './phrase.js';
import { constraintText } from './restate.js';
import { followText } from './search-json.js';
import { formatDate, formatWhen, whereOf } from './when.js';

/**
 * Escapes text for a GFM table cell: no pipe, bracket, emphasis, HTML, entity or line break can escape the cell
 * or inject markup (a backslash escapes ASCII punctuation in CommonMark, so the text renders unchanged).
 */
export function escapeCell(text: string): string {
  return (
    withoutForbidden(text.replace(/\p{Cc}|[\u2028\u2029]/gu, ' '))
      .replace(/[\\`*_[\]<>|~&]/g, '\\$&')
      // GFM turns bare URLs, www. names and e-mail addresses into links, which would show the escapes above literally.
      .replace(/:(?=\/\/)|(?<=www)\.|@/gi, '\\$&')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** A URL safe inside `(…)` of a markdown link. */
function linkTarget(url: string): string {
  return url.replace(/[()<>\s|\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export interface MarkdownOptions {
  baseUrl: string;
  /** What the document is filtered to, for the title line ("AI & ML", "Zürich", "“AI meetups”"). */
  filterLabel: string;
  now: Date;
  /** Registrations per event id (they floor the crowd figure). */
  registrations?: ReadonlyMap<string, number>;
  /** Why the answer may be thin for want of data (see answerCoverage): a note above the table. */
  coverage?: Coverage;
}

/** The paste-ready markdown document: title, summary, live-source note, and the table. */
export function renderMarkdown(result: SearchResult, options: MarkdownOptions): string {
  const live = `${options.baseUrl}/api/md?${toQueryString({ ...result.params, country: result.country })}`;
  const lines = [
    `# Tech events · ${escapeCell(options.filterLabel)}`,
    '',
    `${result.total} upcoming event${result.total === 1 ? '' : 's'} · ${result.countries.join(', ').toUpperCase()} · ${formatDate(options.now, zoneOf(result.country))}`,
    '',
    `> This is a snapshot. The live list is always at <${live}>`,
    '',
    ...(options.coverage
      ? [
          `**Note:** ${escapeCell(coverageText(options.coverage))} Every source’s state: <${options.baseUrl}/sources>`,
          '',
        ]
      : []),
    '| When | Event | Where | Host | Crowd |',
    '|---|---|---|---|---|',
  ];
  for (const { event: e } of result.events) {
    const crowd = expectedCrowd(e, options.registrations?.get(e.id) ?? 0);
    lines.push(
      `| ${escapeCell(formatWhen(e))} | [${escapeCell(e.title)}](${linkTarget(eventPageUrl(options.baseUrl, e))}) | ${escapeCell(whereOf(e))} | ${escapeCell(e.organizer)} | ${crowd === undefined ? '' : `~${crowd} expected`} |`,
    );
  }
  if (result.events.length === 0) lines.push('| — | No upcoming events match all of this. | | | |');
  if (result.total > result.events.length) {
    lines.push('', `Showing ${result.events.length} of ${result.total}. Add \`limit=100\` to the live URL for more.`);
  }
  if (result.widen?.length) {
    lines.push(
      '',
      `Dropping one thing would find more: ${result.widen.map((w) => `without “${escapeCell(constraintText(result, w.constraint))}”, ${w.total}${followText(w, result, options.baseUrl, '/api/md')}`).join('; ')}.`,
    );
  }
  if (result.alternatives?.length) {
    // Near misses are no matches: under their own heading, after the table, each with what differs.
    lines.push(
      '',
      '## Near misses',
      '',
      'Not matches: each misses one thing asked.',
      '',
      '| When | Event | Where | Differs |',
      '|---|---|---|---|',
    );
    for (const { event: e, differs } of result.alternatives) {
      lines.push(
        `| ${escapeCell(formatWhen(e))} | [${escapeCell(e.title)}](${linkTarget(eventPageUrl(options.baseUrl, e))}) | ${escapeCell(whereOf(e))} | ${escapeCell(sayPhrase(differs))} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
