import { dateTime } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import type { Preview, ProposalView } from '../../use-cases/proposals.js';
import { countryName, message, withLanguage } from './i18n.js';
import { layout } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** A proposal's times are the service's, shown on the clock the three countries share, zone named. */
const ZONE = COUNTRY_INFO.ch.timeZone;

/** Seconds after which a page showing a read under way loads itself again (a meta refresh: the pages run no script). */
export const READING_REFRESH_SECONDS = 3;

const when = (iso: string, t: Translator) => dateTime(new Date(iso), ZONE, t);

/** An upcoming event's time: on its country's clock when it has one, else the service's; an all-day date as a day. */
function eventTime(start: string, t: Translator): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(start)) {
    const day = new Date(`${start}T12:00:00Z`);
    return new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(day);
  }
  return when(start, t);
}

/** The preview: what the read found, whether it is synced already, and the events it would list with their places. */
export function previewSection(preview: Preview, t: Translator, headingLevel: 2 | 3 = 2): SafeHtml {
  const heading = headingLevel === 2 ? html`<h2>${t.t('proposal.previewHeading')}</h2>` : html``;
  const source = preview.alreadySynced?.source;
  const synced = t.t('proposal.synced', {
    synced: source === undefined ? 'none' : source === 'community' || source === 'host' ? source : 'feeds',
  });
  const problem = preview.error ? html` <span class="muted" lang="en">${preview.error}</span>` : '';
  return html`${heading}
<p>${t.t('proposal.previewState', { state: preview.state })}${problem}</p>
<p>${synced}</p>
${preview.state === 'ok' ? html`<p>${t.t('proposal.previewCount', { count: preview.events })}</p>` : ''}
${preview.cut ? html`<p class="muted">${t.t('proposal.cut')} <span lang="en">${preview.cut}</span></p>` : ''}
${
  preview.upcoming.length
    ? html`<ol class="preview">${preview.upcoming.map(
        (e) =>
          html`<li><strong>${e.title}</strong> · <time datetime="${e.start}">${eventTime(e.start, t)}</time> · ${e.online ? t.t('proposal.online') : (e.place ?? t.t('proposal.noPlace'))} <span class="muted">(${t.t('proposal.placeFrom', { from: e.placeFrom })})</span>${e.url && linkable(e.url) ? html` · <a href="${e.url}" rel="noopener nofollow">${hostOf(e.url)}</a>` : ''}</li>`,
      )}</ol>`
    : ''
}`;
}

/** Only web and calendar addresses become links: a calendar's text is anyone's, and so is a proposal's. */
export const linkable = (url: string) => /^(https?|webcal):\/\//i.test(url);

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** What was proposed, as facts: the address given and how it is read, or the organisation asking for a key. */
export function proposalFacts(view: ProposalView, t: Translator): SafeHtml {
  const c = view.calendar;
  const k = view.keyRequest;
  const row = (label: string, value: SafeHtml | string) => html`<dt>${label}</dt><dd>${value}</dd>`;
  return html`<dl class="facts">
${row(t.t('proposal.stateLabel'), html`<strong>${t.t('proposal.state', { state: view.state })}</strong>`)}
${row(t.t('proposal.sent'), when(view.createdAt, t))}
${c ? row(t.t('proposal.address'), linkable(c.given) ? html`<a href="${c.given}" rel="noopener nofollow">${c.given}</a>` : c.given) : ''}
${c ? row(t.t('proposal.read'), html`${t.t('proposal.platform', { platform: c.platform })}${c.url !== c.given ? html` · <code>${c.url}</code>` : ''}`) : ''}
${c ? row(t.t('proposal.where'), [c.city, countryName(t, c.country)].filter(Boolean).join(', ')) : ''}
${c?.name ? row(t.t('proposal.name'), c.name) : ''}
${k ? row(t.t('proposal.organisation'), k.organisation) : ''}
${k ? row(t.t('add.keyCountry'), countryName(t, k.country)) : ''}
${k ? row(t.t('proposal.plans'), html`<span class="description">${k.plans}</span>`) : ''}
${k?.website ? row(t.t('proposal.website'), linkable(k.website) ? html`<a href="${k.website}" rel="noopener nofollow">${k.website}</a>` : k.website) : ''}
</dl>`;
}

/** The decision, in words: waiting, accepted (and for a key request the key, once), refused or removed with why. */
function decision(view: ProposalView, t: Translator): SafeHtml {
  const date = view.decidedAt ? when(view.decidedAt, t) : '';
  const reason = view.reason
    ? html`<p><strong>${t.t('proposal.reason')}:</strong> <span class="description">${view.reason}</span></p>`
    : '';
  switch (view.state) {
    case 'reading':
      return html`<p role="status">${message(t, 'proposal.reading', { reload: html`<a href="${withLanguage(`/add/${view.id}`, new URLSearchParams(), t.lang)}">${t.t('proposal.reload')}</a>` })}</p>`;
    case 'waiting':
      return html`<p>${t.t('proposal.pending')}</p>`;
    case 'rejected':
      return html`<div class="notice"><p>${t.t('proposal.rejected', { date })}</p>${reason}</div>`;
    case 'removed':
      return html`<div class="notice"><p>${t.t('proposal.removed', { date })}</p>${reason}</div>`;
    case 'accepted':
      return view.kind === 'key' ? keyShown(view, date, t) : html`<p>${t.t('proposal.acceptedCalendar', { date })}</p>`;
  }
}

function keyShown(view: ProposalView, date: string, t: Translator): SafeHtml {
  const k = view.keyRequest;
  const accepted = html`<p>${t.t('proposal.acceptedKey', { date })}</p>`;
  if (k?.key)
    return html`${accepted}<div class="key-once" role="alert"><p><strong>${t.t('proposal.keyOnce')}</strong></p><code>${k.key}</code><p>${message(t, 'proposal.keyUse', { header: html`<code>Authorization: Bearer …</code>` })}</p></div>`;
  return html`${accepted}${k?.keyShownAt ? html`<p>${t.t('proposal.keyShown', { date: when(k.keyShownAt, t) })}</p>` : ''}`;
}

export interface ProposalPageInput {
  t: Translator;
  baseUrl: string;
  view: ProposalView;
}

/** GET /add/<id>: a proposal's state, what it proposes, and for a calendar the preview of what it would list. */
export function renderProposalPage({ t, baseUrl, view }: ProposalPageInput): string {
  const path = `/add/${view.id}`;
  const preview = view.calendar?.preview;
  return layout(
    {
      t,
      title: `${t.t('proposal.title')} · ${t.t('site.name')}`,
      description: t.t('proposal.keep'),
      baseUrl,
      path,
      query: new URLSearchParams(),
      ...(view.state === 'reading'
        ? { head: html`<meta http-equiv="refresh" content="${READING_REFRESH_SECONDS}">` }
        : {}),
    },
    html`<h1>${t.t(view.kind === 'key' ? 'proposal.headingKey' : 'proposal.headingCalendar')}</h1>
${decision(view, t)}
${proposalFacts(view, t)}
${preview ? previewSection(preview, t) : ''}
<p class="muted">${t.t('proposal.keep')}</p>
<p><a href="${withLanguage('/add', new URLSearchParams(), t.lang)}">${t.t('proposal.again')}</a></p>`,
  );
}
