import { COUNTRIES, COUNTRY_INFO, type Country } from '../../catalogue/countries.js';
import type { FieldError } from '../../catalogue/errors.js';
import { FORMAT_LABELS, FORMATS, TOPICS } from '../../catalogue/taxonomy.js';
import type { SearchResult } from '../../query/engine.js';
import { toQueryString } from '../../query/params.js';
import { eventPageUrl } from '../event-json.js';
import { formatWhen, whereOf } from '../when.js';
import { layout } from './layout.js';
import { html } from './template.js';

export interface SearchPageInput {
  baseUrl: string;
  country: Country;
  /** The raw form values, echoed back into the form. */
  form: Record<string, string>;
  result?: SearchResult;
  errors?: FieldError[];
  /** When nothing matches here: how many would match in the other countries (links to try them). */
  elsewhere?: { country: Country; total: number }[];
}

function select(name: string, label: string, current: string, options: [string, string][]) {
  return html`<label>${label}<select name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`)}</select></label>`;
}

function noneHere(input: SearchPageInput) {
  const others = (input.elsewhere ?? []).filter((o) => o.total > 0);
  if (others.length === 0) return '';
  const q = input.form.q ? `?q=${encodeURIComponent(input.form.q)}` : '';
  return html`<p>The same search finds ${others.map(
    (o, i) =>
      html`${i > 0 ? ' and ' : ''}<a href="/${o.country}${q}">${o.total} in ${COUNTRY_INFO[o.country].name}</a>`,
  )}.</p>`;
}

/** `/` and `/{country}`: a search that works without JavaScript (a GET form), with links to every output. */
export function renderSearchPage(input: SearchPageInput): string {
  const { form, result } = input;
  const country = result?.country ?? input.country;
  const qs = result ? toQueryString({ ...result.params, country }) : `country=${country}`;
  const calendar = `${input.baseUrl}/api/calendar?${qs}`;
  const body = html`
<h1>Tech events in ${COUNTRY_INFO[country].name}</h1>
<form class="search" method="get" action="/" role="search">
  <label class="wide">What are you looking for?
    <input type="search" name="q" value="${form.q ?? ''}" placeholder="e.g. AI meetups in Zürich for founders next week" autofocus>
  </label>
  ${select(
    'country',
    'Country',
    country,
    COUNTRIES.map((c) => [c, COUNTRY_INFO[c].name]),
  )}
  <label>City<input type="text" name="city" value="${form.city ?? ''}" placeholder="any"></label>
  ${select('topic', 'Topic', form.topic ?? '', [['', 'any'], ...TOPICS.map((t): [string, string] => [t.slug, t.label])])}
  ${select('format', 'Format', form.format ?? '', [['', 'any'], ...FORMATS.map((f): [string, string] => [f, FORMAT_LABELS[f]])])}
  ${select('who', 'Audience', form.who ?? '', [
    ['', 'everyone'],
    ['founders', 'founders & executives'],
  ])}
  <button type="submit">Search</button>
</form>
${input.errors?.length ? html`<div class="error" role="alert"><p>Please check:</p><ul>${input.errors.map((e) => html`<li><strong>${e.field}</strong> ${e.message}</li>`)}</ul></div>` : ''}
${
  result
    ? html`
<p class="understood" aria-live="polite">${result.understood} — ${result.total} event${result.total === 1 ? '' : 's'}.</p>
<p class="muted">This list as <a href="${input.baseUrl}/api/md?${qs}">markdown</a> · <a href="${input.baseUrl}/api/events?${qs}">JSON</a> · calendar <a href="${calendar}">https</a> / <a href="${calendar.replace(/^https?:/, 'webcal:')}">webcal</a></p>
<ol class="results">
${result.events.map(
  ({ entry, reasons }) => html`<li>
  <h2><a href="${eventPageUrl(input.baseUrl, entry.event)}">${entry.event.title}</a></h2>
  <div class="muted">${formatWhen(entry.event)} · ${whereOf(entry.event)} · ${entry.event.organizer}</div>
  <ul class="reasons" aria-label="Why it matches">${reasons.map((r) => html`<li>${r}</li>`)}</ul>
</li>`,
)}
</ol>
${result.events.length === 0 ? html`<p>No upcoming events match. Try fewer words or another city.</p>${noneHere(input)}` : ''}`
    : ''
}`;
  return layout(
    {
      title: form.q ? `${form.q} · Tech events` : `Tech events in ${COUNTRY_INFO[country].name}`,
      description:
        'Find tech events in Switzerland, Germany and Austria — in plain words, in English, German or French.',
      url: `${input.baseUrl}/${country}`,
    },
    body,
  );
}
