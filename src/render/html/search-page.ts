import type { FieldError } from '../../catalogue/errors.js';
import { PLAIN_FIELDS, type PlainField } from '../../catalogue/event.js';
import { FORMATS, TOPICS } from '../../catalogue/taxonomy.js';
import type { Phrase } from '../../catalogue/words.js';
import { dayHeading, formatWhen, listingDay, machineTime, periodOf } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRIES, COUNTRY_INFO } from '../../places/countries.js';
import { PAGE_PARAMETERS, type Scope, toQueryString } from '../../query/params.js';
import { type RankedEvent, type SearchResult, UPCOMING, zoneOf } from '../../query/read-index.js';
import type { Coverage } from '../../use-cases/coverage.js';
import { eventPageUrl } from '../event-json.js';
import { sayPhrase } from '../phrase.js';
import { constraintText } from '../restate.js';
import { coverageBanner } from './coverage-banner.js';
import { cfpNote, eventLanguages, languagesText, openCallForPapers } from './event-extras.js';
import { organizerText, siteOf, whereText } from './event-text.js';
import { countryName, message, titleLang, withLanguage } from './i18n.js';
import { layout, type PageMeta } from './layout.js';
import { mapFigure } from './map.js';
import { html, type SafeHtml } from './template.js';
import { isPlainListing, understoodText } from './understood.js';

/** How results are laid out: by relevance (the engine's order), or grouped by day. */
export type ResultOrder = 'relevance' | 'date';

export interface SearchPageInput {
  t: Translator;
  baseUrl: string;
  /** The page's path (`/` or `/{country}`): the language switcher keeps it. */
  path: string;
  /** What the menu chose (all three countries on `/`, the country on `/{country}`); the text may decide otherwise. */
  country: Scope;
  now: Date;
  /** The raw form values, echoed back into the form. */
  form: Record<string, string>;
  /** Set when the reader chose an order (otherwise: by relevance with `q`, by date without). */
  order?: ResultOrder;
  result?: SearchResult;
  errors?: FieldError[];
  freshness?: PageMeta['freshness'];
  /** Why the answer may be thin for want of data (see answerCoverage): a banner above the results. */
  coverage?: Coverage;
}

function select(name: string, label: string, current: string, options: [string, string][]) {
  return html`<label>${label}<select name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`)}</select></label>`;
}

/** The page's own query (its filters, `lang` among them, and order), without `hl`: links and the switcher keep it. */
function pageQuery(input: SearchPageInput): URLSearchParams {
  const query = new URLSearchParams(input.form);
  if (input.order) query.set('order', input.order);
  return query;
}

/** The page of another country a widening leads to: the same search there, with the prompt to ask there. */
function followHref(input: SearchPageInput, follow: { country: string; q: string }): string {
  const query = pageQuery(input);
  query.set('q', follow.q);
  query.delete('country');
  return withLanguage(`/${follow.country}`, query, input.t.lang);
}

function errorText(error: FieldError, input: SearchPageInput): string {
  const { t } = input;
  const value = input.form[error.field] ?? '';
  const plain = Object.values(PLAIN_FIELDS).find((spec) => spec.filter === error.field) as PlainField | undefined;
  const field = plain ? plain.words[t.lang].title : t.t('errors.field', { field: error.field });
  const what =
    error.field === 'city'
      ? t.t('errors.city', { value, country: input.country })
      : /at most/.test(error.message) // the grammar's length limits ("must be at most 500 characters")
        ? t.t('errors.tooLong')
        : /must be a date/.test(error.message)
          ? t.t('errors.date', { value })
          : t.t('errors.invalid', { value });
  return t.t('errors.item', { field, message: what });
}

/**
 * One event in a list: title, when and where, language and call for papers, why it matches (for a near miss, how it
 * differs first), other listings.
 */
function eventCard(ranked: RankedEvent, input: SearchPageInput, differs?: Phrase) {
  const { t, now } = input;
  const { event } = ranked;
  const zone = COUNTRY_INFO[event.country].timeZone;
  const languages = languagesText(eventLanguages(event), t);
  const cfp = cfpNote(openCallForPapers(event, now), zone, t);
  // A plain listing's placeholder reason ("Upcoming") says nothing the day heading does not.
  const reasons = ranked.reasons.filter((reason) => reason !== UPCOMING).map((reason) => sayPhrase(reason, t));
  const period = input.order === 'date' ? undefined : periodOf(listingDay(event, zone, now), zone, now);
  const others = ranked.alsoListedAt;
  return html`<li>
  <h3${titleLang(event, t)}><a href="${eventPageUrl(input.baseUrl, event)}?hl=${t.lang}">${event.title}</a></h3>
  <p class="meta">${period ? html`<strong>${t.t(`period.${period}`)}</strong> · ` : ''}<time datetime="${machineTime(event)}">${formatWhen(event, t)}</time> · ${whereText(event, t)} · ${organizerText(event, t)}${event.country !== input.country ? html` · ${countryName(t, event.country)}` : ''}</p>
  ${differs ? html`<p class="differs"><strong>${t.t('alternatives.differs', { what: sayPhrase(differs, t) })}</strong></p>` : ''}
  ${languages || cfp ? html`<p class="extras">${languages ? html`<span class="badge">${languages}</span>` : ''}${cfp ? html`<span class="badge cfp">${cfp}</span>` : ''}</p>` : ''}
  ${reasons.length ? html`<ul class="reasons" aria-label="${t.t('results.why')}">${reasons.map((r) => html`<li>${r}</li>`)}</ul>` : ''}
  ${others.length ? html`<p class="also">${message(t, 'results.alsoListedAt', { sites: html`${others.map((u, i) => html`${i > 0 ? ', ' : ''}<a href="${u}" rel="noopener nofollow">${siteOf(u)}</a>`)}` })}</p>` : ''}
</li>`;
}

/** Results grouped by the local day they are listed under, each day headed "Today · …", "Next week · …". */
function byDay(events: RankedEvent[], input: SearchPageInput, result: SearchResult): SafeHtml {
  const zone = zoneOf(result.country);
  const days = new Map<string, RankedEvent[]>();
  const sorted = [...events].sort((a, b) => a.event.start.getTime() - b.event.start.getTime());
  for (const ranked of sorted) {
    const day = listingDay(ranked.event, zone, input.now);
    const list = days.get(day);
    if (list) list.push(ranked);
    else days.set(day, [ranked]);
  }
  return html`${[...days].map(
    ([day, list]) => html`<section class="day" aria-labelledby="day-${day}">
<h2 id="day-${day}">${dayHeading(day, zone, input.now, input.t)}</h2>
<ol class="results">${list.map((ranked) => eventCard(ranked, input))}</ol>
</section>`,
  )}`;
}

function orderSwitch(input: SearchPageInput, order: ResultOrder): SafeHtml {
  const { t } = input;
  const link = (value: ResultOrder, label: string) => {
    const query = pageQuery(input);
    query.set('order', value);
    return value === order
      ? html`<a href="${withLanguage(input.path, query, t.lang)}" aria-current="page">${label}</a>`
      : html`<a href="${withLanguage(input.path, query, t.lang)}">${label}</a>`;
  };
  return html`<nav class="order" aria-label="${t.t('results.order')}">${message(t, 'site.labelled', { label: t.t('results.order'), value: html`${link('relevance', t.t('results.byRelevance'))} · ${link('date', t.t('results.byDate'))}` })}</nav>`;
}

/** The near misses, under their own heading after the matches; an empty answer says so and what would widen it. */
function apartSection(input: SearchPageInput, result: SearchResult): SafeHtml {
  const { t } = input;
  const alternatives = result.alternatives ?? [];
  const empty = result.total === 0;
  const plain = isPlainListing(result);
  const widen = result.widen ?? [];
  return html`${
    empty
      ? html`<section class="empty">
<p>${plain && result.country !== 'all' ? t.t('empty.country', { country: result.country }) : t.t('alternatives.none')}</p>
${widen.length ? html`<ul class="widen">${widen.map((w) => html`<li>${t.t('alternatives.widen', { what: constraintText(result, w.constraint, t), count: w.total })}${w.follow ? html` — <a href="${followHref(input, w.follow)}">${t.t('country.in', { country: w.follow.country })}</a>` : ''}</li>`)}</ul>` : ''}
${!plain && alternatives.length === 0 && !input.coverage ? html`<p>${t.t('alternatives.nothingClose')}</p>` : ''}
${plain && alternatives.length === 0 ? html`<p>${t.t('empty.nothing')}</p>` : ''}
</section>`
      : ''
  }${
    alternatives.length
      ? html`<section class="alternatives" aria-labelledby="alternatives">
<h2 id="alternatives">${t.t('alternatives.heading')}</h2>
<p>${t.t('alternatives.intro')}</p>
<ol class="results">${alternatives.map((alt) => eventCard(alt, input, alt.differs))}</ol>
</section>`
      : ''
  }`;
}

function resultsSection(input: SearchPageInput, result: SearchResult): SafeHtml {
  const { t } = input;
  const order: ResultOrder = input.order ?? (result.params.q ? 'relevance' : 'date');
  const qs = toQueryString({ ...result.params, country: result.country });
  const calendar = `${input.baseUrl}/api/calendar?${qs}`;
  // The text decides over the menu: when the search names another country than the menu's, the page says so.
  const applied =
    result.country !== input.country
      ? html`<p class="applied">${t.t('results.applied', { country: result.country })}</p>`
      : '';
  const understood = understoodText(result, t);
  const count = t.t('results.count', { count: result.total });
  const shown = { ...input, order };
  return html`${applied}
${input.coverage ? coverageBanner(input.coverage, t, result.events.length > 0) : ''}
<p class="understood" aria-live="polite">${t.t('results.summary', { understood, count })}</p>
<p class="muted">${message(t, 'results.outputs', {
    markdown: html`<a href="${input.baseUrl}/api/md?${qs}">${t.t('results.markdown')}</a>`,
    json: html`<a href="${input.baseUrl}/api/events?${qs}">JSON</a>`,
    https: html`<a href="${calendar}">https</a>`,
    webcal: html`<a href="${calendar.replace(/^https?:/, 'webcal:')}">webcal</a>`,
    feed: html`<a href="${input.baseUrl}/api/feed?${qs}" type="application/atom+xml">${t.t('results.feed')}</a>`,
  })}</p>
${result.params.q && result.events.length > 1 ? orderSwitch(input, order) : ''}
<div class="listing">
${mapFigure(result.events, t)}
<div class="list">
${
  result.events.length === 0
    ? ''
    : order === 'date'
      ? byDay(result.events, shown, result)
      : html`<h2 class="visually-hidden">${t.t('results.heading')}</h2>
<ol class="results">${result.events.map((ranked) => eventCard(ranked, shown))}</ol>`
}
${apartSection(input, result)}
</div>
</div>
${embedSection(input, qs)}`;
}

/** "Embed this list": the snippet that shows this query on another site with the `<tech-events>` element. */
function embedSection(input: SearchPageInput, qs: string): SafeHtml {
  const { t } = input;
  const attributes = [...new URLSearchParams(qs)].map(
    ([name, value]) => ` ${name}="${value.replace(/[&"<]/g, (c) => `&#${c.charCodeAt(0)};`)}"`,
  );
  const snippet = `<script src="${input.baseUrl}/embed.js" defer></script>\n<tech-events${attributes.join('')} hl="${t.lang}"></tech-events>`;
  return html`<details class="embed">
<summary>${t.t('embed.title')}</summary>
<p>${t.t('embed.help')}</p>
<pre><code>${snippet}</code></pre>
</details>`;
}

/**
 * What a search asked, as the folded form shows it: the text typed, else the fields chosen ("Berlin · AI & ML"), as
 * a marker's link to a place's list sets them; empty when nothing was asked beyond the country.
 */
function searchedFor({ t, form }: SearchPageInput): string {
  const q = form.q?.trim();
  if (q) return q;
  const topic = TOPICS.find((x) => x.slug === form.topic);
  const format = FORMATS.find((f) => f === form.format);
  return [
    form.city?.trim(),
    topic && t.t(`topic.${topic.slug}`),
    format && t.t(`format.${format}`),
    form.who === 'founders' && t.t('search.founders'),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The form's own fields; the query's other parameters (`lang`, `cfp`, `from` …) ride along hidden, kept by a new search. */
const FORM_FIELDS: ReadonlySet<string> = new Set(['q', 'country', 'city', 'topic', 'format', 'who']);

/**
 * The search form. Once a search ran it folds into one line that shows the search (a `<details>`, no script), so that
 * on a phone the results start on the first screen; with no search it is open, its box focused.
 */
function searchForm(input: SearchPageInput, country: Scope): SafeHtml {
  const { t, form } = input;
  const q = searchedFor(input);
  const kept = PAGE_PARAMETERS.filter((name) => !FORM_FIELDS.has(name) && form[name]);
  const fields = html`<form class="search" method="get" action="/" role="search">
  <input type="hidden" name="hl" value="${t.lang}">${kept.map(
    (name) => html`
  <input type="hidden" name="${name}" value="${form[name]!}">`,
  )}
  <label class="wide">${t.t('search.label')}
    <input type="search" name="q" value="${form.q ?? ''}" placeholder="${t.t('search.placeholder')}"${q ? '' : html` autofocus`}>
  </label>
  ${select('country', t.t('search.country'), country, [
    ['all', t.t('search.allCountries')],
    ...COUNTRIES.map((c): [string, string] => [c, countryName(t, c)]),
  ])}
  <label>${t.t('search.city')}<input type="text" name="city" value="${form.city ?? ''}" placeholder="${t.t('search.cityAny')}"></label>
  ${select('topic', t.t('search.topic'), form.topic ?? '', [
    ['', t.t('search.any')],
    ...TOPICS.map((topic): [string, string] => [topic.slug, t.t(`topic.${topic.slug}`)]),
  ])}
  ${select('format', t.t('search.format'), form.format ?? '', [
    ['', t.t('search.any')],
    ...FORMATS.map((f): [string, string] => [f, t.t(`format.${f}`)]),
  ])}
  ${select('who', t.t('search.audience'), form.who ?? '', [
    ['', t.t('search.everyone')],
    ['founders', t.t('search.founders')],
  ])}
  <button type="submit">${t.t('search.submit')}</button>
</form>`;
  if (!q) return fields;
  // A search with problems stays open: the reader is there to mend it.
  return html`<details class="search"${input.errors?.length ? html` open` : ''}>
<summary>${message(t, 'search.folded', { q: html`<strong>${q}</strong>` })} <span class="change">${t.t('search.change')}</span></summary>
${fields}
</details>`;
}

/** `/` and `/{country}`: a search that works without JavaScript (a GET form), with links to every output. */
export function renderSearchPage(input: SearchPageInput): string {
  const { t, form, result } = input;
  const country = result?.country ?? input.country;
  const body = html`
<h1>${t.t('home.title', { country })}</h1>
${searchForm(input, country)}
${input.errors?.length ? html`<div class="error" role="alert"><p>${t.t('errors.title')}</p><ul>${input.errors.map((e) => html`<li>${errorText(e, input)}</li>`)}</ul></div>` : ''}
${result ? resultsSection(input, result) : ''}`;
  return layout(
    {
      t,
      title: form.q ? t.t('search.title', { q: form.q }) : t.t('home.title', { country }),
      description: t.t('home.description'),
      wide: true,
      baseUrl: input.baseUrl,
      path: input.path,
      query: pageQuery(input),
      // Every search canonicalises to its country's page (the home page for all three) in the same language: result
      // lists are not for indexing.
      canonical: `${input.baseUrl}${withLanguage(country === 'all' ? '/' : `/${country}`, new URLSearchParams(), t.lang)}`,
      ...(input.freshness ? { freshness: input.freshness } : {}),
      ...(result
        ? {
            head: html`<link rel="alternate" type="application/atom+xml" title="${t.t('results.feed')}" href="${input.baseUrl}/api/feed?${toQueryString({ ...result.params, country: result.country })}">`,
          }
        : {}),
    },
    body,
  );
}
