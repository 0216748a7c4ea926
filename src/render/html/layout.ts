import { dateTime, isoDayLabel } from '../../i18n/dates.js';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import type { Translator } from '../../i18n/translator.js';
import type { SourceFreshness } from '../../use-cases/catalogue-status.js';
import { message, OWN_NAMES, withLanguage } from './i18n.js';
import { html, type SafeHtml } from './template.js';

export interface PageMeta {
  t: Translator;
  title: string;
  description: string;
  baseUrl: string;
  /** The page's path and its query without `hl`: the switcher and the `hreflang` alternates keep both. */
  path: string;
  query: URLSearchParams;
  /** Canonical URL, absolute; by default this page in its language. */
  canonical?: string;
  head?: SafeHtml;
  /** Scripts of this site the page loads (deferred); such a page is sent with HTML_SCRIPT_HEADERS. */
  scripts?: readonly string[];
  /** Lists and tables take a wider page (a list beside its map, the sources' columns) than the text of an event. */
  wide?: boolean;
  /** How old each source's data is, and in which zone to show times; without it the line is left out. */
  freshness?: { sources: readonly SourceFreshness[]; zone: string };
}

/** The absolute URL of a page in a language, or (`undefined`) the URL that picks the language itself. */
export function pageUrl(meta: Pick<PageMeta, 'baseUrl' | 'path' | 'query'>, lang: Language | undefined): string {
  return `${meta.baseUrl}${withLanguage(meta.path, meta.query, lang)}`;
}

/**
 * The shell of every page: `<html lang>`, `hreflang` alternates for each language and `x-default` for the
 * negotiating URL, a language switcher that keeps the page and its query, accessible landmarks, OpenGraph tags and
 * one stylesheet (the CSP allows nothing inline).
 */
export function layout(meta: PageMeta, body: SafeHtml): string {
  const { t } = meta;
  const canonical = meta.canonical ?? pageUrl(meta, t.lang);
  return html`<!doctype html>
<html lang="${t.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${meta.title}</title>
<meta name="description" content="${meta.description}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:url" content="${canonical}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="${t.t('site.name')} · ch · de · at">
<link rel="canonical" href="${canonical}">
${LANGUAGES.map((lang) => html`<link rel="alternate" hreflang="${lang}" href="${pageUrl(meta, lang)}">\n`)}<link rel="alternate" hreflang="x-default" href="${pageUrl(meta, undefined)}">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${meta.head}
${(meta.scripts ?? []).map((src) => html`<script src="${src}" defer></script>\n`)}</head>
<body${meta.wide ? html` class="wide"` : ''}>
<header class="site">
<a href="${withLanguage('/', new URLSearchParams(), t.lang)}" class="brand">${t.t('site.name')}</a> <span class="muted">${t.t('site.countries')}</span>
<nav class="languages" aria-label="${t.t('site.languages')}"><ul>${LANGUAGES.map(
    (lang) =>
      html`<li><a href="${withLanguage(meta.path, meta.query, lang)}" hreflang="${lang}" lang="${lang}"${lang === t.lang ? html` aria-current="page"` : ''}>${OWN_NAMES[lang]}</a></li>`,
  )}</ul></nav>
</header>
<main id="main">
${body}
</main>
<footer class="site muted">
<p>${message(t, 'site.footer', {
    api: html`<a href="/docs">${t.t('site.api')}</a>`,
    openapi: html`<a href="/api/openapi.json">OpenAPI</a>`,
    mcp: html`<code>/api/mcp</code>`,
  })}</p>
<p>${addLink(t)} · <a href="${withLanguage('/sources', new URLSearchParams(), t.lang)}">${t.t('coverage.sourcesLink')}</a></p>
${meta.freshness?.sources.length ? html`<p>${freshnessLine(meta.freshness, t)}</p>` : ''}
</footer>
</body>
</html>
`.value;
}

/** The page where communities propose their calendar or ask for a key, in the reader's language. */
export const addLink = (t: Translator): SafeHtml =>
  html`<a href="${withLanguage('/add', new URLSearchParams(), t.lang)}">${t.t('add.link')}</a>`;

/** "Data as of: confs-tech 6 Aug 2026 (snapshot) · meetup 26 Nov 2026, 12:05 CET", each source's own age. */
export function freshnessLine(freshness: NonNullable<PageMeta['freshness']>, t: Translator): SafeHtml {
  const parts = freshness.sources.map((f) => {
    const source = html`<a href="/sources"><code>${f.source}</code></a>`;
    if (f.kind === 'synced') return message(t, 'site.sourceAsOf', { source, time: dateTime(f.at, freshness.zone, t) });
    if (f.kind === 'snapshot')
      return message(t, 'site.sourceSnapshot', { source, date: isoDayLabel(f.of, freshness.zone, t) });
    if (f.nextTry)
      return message(t, 'site.sourceNotReadNext', { source, time: dateTime(f.nextTry, freshness.zone, t) });
    return message(t, 'site.sourceNotRead', { source });
  });
  return message(t, 'site.dataAsOf', { sources: joined(parts, ' · ') });
}

function joined(parts: SafeHtml[], separator: string): SafeHtml {
  return parts.reduce<SafeHtml>((all, part, i) => (i === 0 ? part : html`${all}${separator}${part}`), html``);
}

/** Security headers of every HTML page: a strict CSP (no scripts at all), no sniffing, little referrer. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * The headers of a page that loads this site's own scripts (the passkey buttons of /me): scripts and fetches of
 * this origin only, nothing inline; every other page keeps HTML_SECURITY_HEADERS and no scripts at all.
 */
export const HTML_SCRIPT_HEADERS: Record<string, string> = {
  ...HTML_SECURITY_HEADERS,
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};

export const SITE_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1f; --muted: #5f6368; --accent: #0b57d0; --bg: #fff; --card: #f6f7f9; --good: #146c2e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --muted: #a0a4a8; --accent: #8ab4f8; --bg: #121316; --card: #1d1f23; --good: #6dd58c; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 56rem; padding: 1rem; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
body.wide { max-width: 76rem; }
h1 { font-size: clamp(1.3rem, .8rem + 2vw, 2rem); line-height: 1.2; margin: .5rem 0 1rem; }
a { color: var(--accent); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
header.site { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: baseline; padding: .25rem 0; }
footer.site { padding: 1rem 0; font-size: .9rem; }
footer.site p { margin: .25rem 0; }
.brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; }
nav.languages { margin-left: auto; }
nav.languages ul { display: flex; gap: .6rem; list-style: none; margin: 0; padding: 0; }
nav.languages a[aria-current] { font-weight: 700; color: var(--fg); text-decoration: none; }
.muted { color: var(--muted); }
form.search { display: grid; gap: .5rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); background: var(--card); padding: 1rem; border-radius: .5rem; }
details.search > summary { cursor: pointer; background: var(--card); padding: .6rem 1rem; border-radius: .5rem; overflow-wrap: anywhere; }
details.search > summary .change { color: var(--accent); text-decoration: underline; white-space: nowrap; }
details.search[open] > summary { border-radius: .5rem .5rem 0 0; }
details.search[open] > form.search { border-radius: 0 0 .5rem .5rem; padding-top: .25rem; }
form.search .wide { grid-column: 1 / -1; }
label { display: flex; flex-direction: column; font-size: .9rem; gap: .2rem; }
input, select, button { font: inherit; padding: .45rem .6rem; border-radius: .35rem; border: 1px solid var(--muted); background: var(--bg); color: var(--fg); }
button { background: var(--accent); color: var(--bg); border: none; cursor: pointer; font-weight: 600; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.understood { font-style: italic; }
nav.order a[aria-current] { font-weight: 700; color: var(--fg); text-decoration: none; }
section.day h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--muted); }
ol.results { list-style: none; padding: 0; display: grid; gap: .75rem; }
ol.results > li { background: var(--card); padding: .75rem 1rem; border-radius: .5rem; }
ol.results h3 { margin: 0 0 .25rem; font-size: 1.1rem; }
ol.results p { margin: .25rem 0; }
.meta { color: var(--muted); }
.meta strong { color: var(--fg); }
.badge { display: inline-block; font-size: .85rem; margin-right: .5rem; padding: .05rem .5rem; border-radius: .3rem; border: 1px solid var(--muted); }
.badge.cfp { border-color: var(--good); color: var(--good); }
.badge.cfp a { color: var(--good); }
.also { font-size: .85rem; color: var(--muted); }
.reasons { display: flex; flex-wrap: wrap; gap: .35rem; padding: 0; margin: .4rem 0 0; list-style: none; }
.reasons li { font-size: .8rem; padding: .1rem .5rem; border-radius: 1rem; border: 1px solid var(--muted); }
.cta { display: inline-block; padding: .6rem 1rem; border-radius: .4rem; background: var(--accent); color: var(--bg); font-weight: 600; text-decoration: none; }
.notice { padding: .75rem 1rem; border-radius: .5rem; border: 2px solid #c5221f; }
.error { padding: .75rem 1rem; border-radius: .5rem; border: 2px solid #c5221f; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
ul.inline { display: inline; list-style: none; padding: 0; margin: 0; }
ul.inline li { display: inline; }
ul.inline li + li::before { content: ", "; }
.description { white-space: pre-line; }
table.sources { width: 100%; border-collapse: collapse; font-size: .9rem; }
table.sources th, table.sources td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--card); }
table.sources .error-text { overflow-wrap: anywhere; }
table.sources a.url { white-space: nowrap; }
ul.summary { list-style: none; padding: .75rem 1rem; margin: 0 0 1rem; background: var(--card); border-radius: .5rem; font-weight: 600; }
details.calendars { margin: 1.25rem 0; }
details.calendars > summary { cursor: pointer; }
details.calendars > summary h2 { display: inline; font-size: 1.2rem; margin: 0; }
table.calendars td { padding-top: .15rem; padding-bottom: .15rem; }
@media (max-width: 40rem) {
  header.site > .muted { display: none; }
  p.applied, p.understood, main > p.muted, nav.order { font-size: .9rem; margin: .5rem 0; }
  /* Above the list on a phone the map's names say where; its caption stays the text alternative, unseen. */
  figure.map figcaption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  table.sources thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.sources, table.sources tbody { display: block; }
  table.sources tr { display: block; padding: .4rem 0; border-bottom: 1px solid var(--muted); }
  table.sources td { display: grid; grid-template-columns: 8rem minmax(0, 1fr); gap: .5rem; border: none; padding: .1rem 0; }
  table.sources td::before { content: attr(data-label); font-weight: 600; }
  table.sources a.url { white-space: normal; overflow-wrap: anywhere; }
}
figure.map { margin: 0; }
figure.map svg { display: block; width: 100%; height: auto; background: #f4f7fa; border-radius: .5rem; }
figure.map circle { fill: var(--accent); fill-opacity: .9; stroke: var(--bg); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
figure.map a:focus-visible circle, figure.map a:hover circle { stroke: var(--fg); stroke-width: 3; }
figure.map text { pointer-events: none; font-weight: 700; }
figure.map text.count { fill: var(--bg); text-anchor: middle; }
figure.map text.place { fill: #1b1b1f; stroke: #fff; stroke-linejoin: round; paint-order: stroke; font-weight: 600; }
figure.map figcaption { font-size: .85rem; color: var(--muted); margin-top: .35rem; }
.listing { display: grid; gap: 1rem; margin-top: .75rem; }
.listing > .list > :first-child, .listing > .list > h2.visually-hidden + ol.results { margin-top: 0; }
@media (min-width: 60rem) {
  .listing { grid-template-columns: minmax(0, 1fr) 23rem; gap: 1.5rem; }
  .listing > figure.map { grid-column: 2; grid-row: 1; position: sticky; top: 1rem; align-self: start; }
  .listing > .list { grid-column: 1; grid-row: 1; }
}
`;
