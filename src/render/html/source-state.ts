import type { Translator } from '../../i18n/translator.js';
import type { SourcesView, SourceView } from '../../use-cases/list-sources.js';
import { html, type SafeHtml } from './template.js';

/** Why a read failed, in words: the reader's reasons for the errors the HTTP reader words (importers/http-reader.ts). */
type Cause = 'refused' | 'dns' | 'network' | 'timeout' | 'http' | 'redirects' | 'tooLarge' | 'other';

const CAUSES: [RegExp, Cause][] = [
  [/failed: ECONNREFUSED/, 'refused'],
  [/failed: (ENOTFOUND|EAI_AGAIN)/, 'dns'],
  [/failed: (ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|EPIPE|UND_ERR_\w+)/, 'network'],
  [/timed out/, 'timeout'],
  [/answered HTTP \d+/, 'http'],
  [/redirects/, 'redirects'],
  [/is larger than/, 'tooLarge'],
];

/**
 * A failure as the page shows it: its cause in the reader's language and the address it failed at as a short link
 * (the whole URL in its href); an error it cannot word is shown as the system wrote it, marked English, its
 * addresses shortened the same way. A calendar's row links its address already: there `withLink` is false.
 */
export function causeOf(error: string, t: Translator, withLink = true): SafeHtml {
  const cause = CAUSES.find(([pattern]) => pattern.test(error))?.[1] ?? 'other';
  if (cause === 'other') return html`<span class="error-text" lang="en">${withShortLinks(error)}</span>`;
  const status = /answered HTTP (\d+)/.exec(error)?.[1] ?? '';
  const url = error.match(URL_PATTERN)?.[0];
  const words = t.t('sources.cause', { cause, status });
  return url && withLink ? html`${words} (${shortLink(url)})` : html`${words}`;
}

const URL_PATTERN = /https?:\/\/[^\s,;]+/g;

function withShortLinks(text: string): SafeHtml {
  const parts: (string | SafeHtml)[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    parts.push(text.slice(last, match.index), shortLink(match[0]));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return html`${parts}`;
}

function shortLink(url: string): SafeHtml {
  return html`<a href="${url}" class="url"><code>${shortUrl(url)}</code></a>`;
}

/** The most an address shows of its path: enough to tell two calendars of one host apart. */
const PATH_SHOWN = 24;

/** "meetup.com/rust-basel/events/…": the host (without www.) and the start of the path; the query never. */
export function shortUrl(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    const path = pathname === '/' ? '' : pathname;
    if (path.length <= PATH_SHOWN) return `${host.replace(/^www\./, '')}${path}`;
    // Cut at a slash where one is near, so that the shown part ends at a whole segment.
    const cut = path.slice(0, PATH_SHOWN);
    const slash = cut.lastIndexOf('/');
    return `${host.replace(/^www\./, '')}${slash > 0 ? cut.slice(0, slash + 1) : cut}…`;
  } catch {
    return url.length > 40 ? `${url.slice(0, 40)}…` : url;
  }
}

/** What a source is now, for the summary: each source counted once. */
type Standing = 'read' | 'snapshot' | 'failing' | 'unread' | 'off' | 'pushed';

function standingOf(s: SourceView): Standing {
  if (s.feed && !s.enabled) return 'off';
  if (!s.feed) return 'pushed';
  if (!s.lastSuccess && !s.snapshot) return 'unread';
  if (s.lastError) return 'failing';
  return s.lastSuccess ? 'read' : 'snapshot';
}

const STANDINGS: Standing[] = ['read', 'snapshot', 'failing', 'unread', 'off', 'pushed'];

/**
 * The page's first lines: how many sources, how many read, failing, not read yet or off, and for feeds of calendars
 * how many of their calendars have been read — what a reader wonders before the table answers it row by row.
 */
export function summary(view: SourcesView, t: Translator): SafeHtml {
  const counts = new Map<Standing, number>();
  for (const s of view.sources) counts.set(standingOf(s), (counts.get(standingOf(s)) ?? 0) + 1);
  // "Read" is always said, also as 0: it is the number a reader looks for.
  const parts = STANDINGS.filter((s) => s === 'read' || counts.get(s)).map((state) =>
    t.t('sources.summaryPart', { state, count: counts.get(state) ?? 0 }),
  );
  const calendars = view.sources.flatMap((s) => s.calendars ?? []);
  const read = calendars.filter((c) => c.lastSuccess).length;
  return html`<ul class="summary">
<li>${t.t('sources.summary', { count: view.sources.length, parts: parts.join(', ') })}</li>
${calendars.length ? html`<li>${t.t('sources.summaryCalendars', { read, count: calendars.length })}</li>` : ''}
</ul>`;
}
