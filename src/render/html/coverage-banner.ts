import type { Translator } from '../../i18n/translator.js';
import { COUNTRIES, type Country } from '../../places/countries.js';
import type { Coverage, CoverageSource } from '../../use-cases/coverage.js';
import { monthLabel } from '../coverage.js';
import { countryName, message, withLanguage } from './i18n.js';
import { addLink } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** Calendars named in the banner before "and N more" (all of them are on /sources). */
const NAMES_SHOWN = 6;

/** The banner's own style, appended to the site's stylesheet. */
export const COVERAGE_CSS = `
.coverage { margin: 1rem 0; padding: .75rem 1rem; border-radius: .5rem; border-left: .35rem solid #b06000; background: var(--card); }
.coverage h2 { font-size: 1rem; margin: 0 0 .35rem; }
details.coverage { padding: .4rem 1rem; }
details.coverage summary { cursor: pointer; }
details.coverage summary h2 { display: inline; margin: 0; }
.coverage ul { margin: .25rem 0; padding-left: 1.25rem; }
.coverage p { margin: .35rem 0; }
`;

/** "6 August 2026", "6. August 2026", "6 août 2026": a YYYY-MM-DD day, without the weekday it would read as news. */
function dayLabel(isoDay: string, t: Translator): string {
  const format = new Intl.DateTimeFormat(t.locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return format.format(new Date(`${isoDay.slice(0, 10)}T12:00:00Z`));
}

function names(s: CoverageSource, t: Translator): string {
  const all = s.names ?? [];
  const shown = all.slice(0, NAMES_SHOWN).join(', ');
  return all.length > NAMES_SHOWN ? `${shown} ${t.t('coverage.more', { count: all.length - NAMES_SHOWN })}` : shown;
}

function sourceLine(s: CoverageSource, t: Translator): SafeHtml {
  const source = html`<code>${s.source}</code>`;
  const since = s.lastSuccess ? dayLabel(s.lastSuccess, t) : undefined;
  if (s.calendars !== undefined) {
    const values = { count: s.calendars, source, names: names(s, t) };
    if (s.state === 'not-read') return message(t, 'coverage.calendarsNotRead', values);
    return since
      ? message(t, 'coverage.calendarsFailing', { ...values, since })
      : message(t, 'coverage.calendarsFailingNever', values);
  }
  if (s.state === 'not-read') return message(t, 'coverage.sourceNotRead', { source });
  if (s.state === 'snapshot')
    return message(t, 'coverage.snapshot', { source, date: s.snapshotOf ? dayLabel(s.snapshotOf, t) : '—' });
  if (since) return message(t, 'coverage.sourceFailing', { source, since });
  return s.snapshotOf
    ? message(t, 'coverage.sourceFailingSnapshot', { source, date: dayLabel(s.snapshotOf, t) })
    : message(t, 'coverage.sourceFailingNever', { source });
}

/** A month's listing of a country: its page from the first to the last day of the month. */
function monthLink(country: Country, month: string, t: Translator): SafeHtml {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const query = new URLSearchParams({ from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` });
  return html`<a href="${withLanguage(`/${country}`, query, t.lang)}">${monthLabel(month, t.locale)}</a>`;
}

function heldIn(coverage: Coverage, country: Country, t: Translator): SafeHtml {
  const name = html`<a href="${withLanguage(`/${country}`, new URLSearchParams(), t.lang)}">${countryName(t, country)}</a>`;
  const count = coverage.upcoming[country];
  const months = coverage.months[country];
  if (count === 0 || months.length === 0) return message(t, 'coverage.country', { country: name, count });
  const links = months.reduce<SafeHtml>(
    (all, month, i) => html`${all}${i > 0 ? ', ' : ''}${monthLink(country, month, t)}`,
    html``,
  );
  return message(t, 'coverage.countryMonths', { country: name, count, months: links });
}

/**
 * Why the answer may be thin for want of data, in the page's language: the unread or failing sources and calendars
 * by name, what each country holds and in which months, and the sources page. Above a list that has events it is
 * folded to its heading, so that on a phone the events still start within the first screen.
 */
export function coverageBanner(coverage: Coverage, t: Translator, folded = false): SafeHtml {
  const notRead = coverage.sources.some((s) => s.state === 'not-read');
  const sources = html`<a href="${withLanguage('/sources', new URLSearchParams(), t.lang)}">${t.t('coverage.sourcesLink')}</a>`;
  const heading = html`<h2 id="coverage-heading">${t.t('coverage.heading')}</h2>`;
  return html`${folded ? html`<details class="coverage"><summary>${heading}</summary>` : html`<section class="coverage" aria-labelledby="coverage-heading">${heading}`}
<ul>${coverage.sources.map((s) => html`<li>${sourceLine(s, t)}</li>`)}</ul>
${notRead ? html`<p>${t.t(coverage.sync === 'off' ? 'coverage.syncOff' : 'coverage.syncPending')}</p>` : ''}
<p>${t.t('coverage.held')}</p>
<ul>${COUNTRIES.map((c) => html`<li>${heldIn(coverage, c, t)}</li>`)}</ul>
<p>${message(t, 'coverage.sources', { link: sources })} ${message(t, 'add.missing', { link: addLink(t) })}</p>
${folded ? html`</details>` : html`</section>`}`;
}
