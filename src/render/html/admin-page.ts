import { dateTime } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRY_INFO } from '../../places/countries.js';
import type { ModerationActor, ProposalDetail, ProposalView } from '../../use-cases/proposals.js';
import { layout } from './layout.js';
import { linkable, previewSection, proposalFacts } from './proposal-page.js';
import { html, type SafeHtml } from './template.js';

const ZONE = COUNTRY_INFO.ch.timeZone;

/** One decision of the audit log, with the proposal it was about. */
export interface LogLine {
  at: string;
  actor: ModerationActor;
  action: ProposalDetail['log'][number]['action'];
  reason: string | null;
  proposal: Pick<ProposalView, 'id' | 'kind'>;
}

export interface AdminPageInput {
  t: Translator;
  baseUrl: string;
  waiting: ProposalView[];
  accepted: ProposalView[];
  log: LogLine[];
  /** What a decision just sent was refused for, in the service's words. */
  problem?: string;
}

const LOG_COLUMNS = ['at', 'actor', 'action', 'proposal', 'reason'] as const;

/** The actors as the messages' selects name them (a select's keys take no hyphen). */
const ACTOR_KEYS: Record<ModerationActor, string> = { cli: 'cli', 'admin-api': 'adminApi', 'admin-page': 'adminPage' };

/** A POST form on one proposal: the action, with a reason field when it takes one. */
function decide(
  view: ProposalView,
  action: 'accept' | 'reject' | 'remove',
  t: Translator,
  reason?: 'required' | 'optional',
): SafeHtml {
  const label = reason === 'required' ? t.t('admin.reason') : t.t('admin.reasonOptional');
  return html`<form class="decide" method="post" action="/admin/proposals/${view.id}/${action}?hl=${t.lang}">
${reason ? html`<label>${label}<input type="text" name="reason"${reason === 'required' ? html` required` : ''}></label>` : ''}
<button type="submit">${t.t(`admin.${action}`)}</button>
</form>`;
}

function waitingSection(view: ProposalView, t: Translator): SafeHtml {
  const preview = view.calendar?.preview;
  return html`<section class="proposal" id="${view.id}" aria-labelledby="h-${view.id}">
<h3 id="h-${view.id}">${view.calendar?.name ?? view.keyRequest?.organisation ?? view.calendar?.given ?? view.id} <span class="muted">· ${t.t('admin.kind', { kind: view.kind })} · <a href="/add/${view.id}?hl=${t.lang}"><code>${view.id}</code></a></span></h3>
${proposalFacts(view, t)}
${preview ? previewSection(preview, t, 3) : ''}
${view.state === 'waiting' ? html`${decide(view, 'accept', t)}${decide(view, 'reject', t, 'required')}` : ''}
</section>`;
}

function acceptedRow(view: ProposalView, t: Translator): SafeHtml {
  const c = view.calendar!;
  return html`<tr id="${view.id}"><td>${c.name ?? '—'}</td><td>${linkable(c.given) ? html`<a href="${c.given}" rel="noopener nofollow">${c.given}</a>` : c.given}</td><td>${view.decidedAt ? dateTime(new Date(view.decidedAt), ZONE, t) : '—'}</td><td>${decide(view, 'remove', t, 'optional')}</td></tr>`;
}

function logRow(line: LogLine, t: Translator): SafeHtml {
  const cells = [
    dateTime(new Date(line.at), ZONE, t),
    t.t('admin.actor', { actor: ACTOR_KEYS[line.actor] }),
    t.t('admin.action', { action: line.action }),
    html`<a href="/add/${line.proposal.id}?hl=${t.lang}"><code>${line.proposal.id}</code></a> <span class="muted">${t.t('admin.kind', { kind: line.proposal.kind })}</span>`,
    line.reason ?? '—',
  ];
  return html`<tr>${cells.map((cell) => html`<td>${cell}</td>`)}</tr>`;
}

/** GET /admin: the proposals waiting (with their previews and the buttons that decide), the accepted calendars, the log. */
export function renderAdminPage(input: AdminPageInput): string {
  const { t } = input;
  return layout(
    {
      t,
      title: `${t.t('admin.title')} · ${t.t('site.name')}`,
      description: t.t('admin.title'),
      baseUrl: input.baseUrl,
      path: '/admin',
      query: new URLSearchParams(),
      wide: true,
    },
    html`<h1>${t.t('admin.title')}</h1>
${input.problem ? html`<div class="error" role="alert"><p lang="en">${input.problem}</p></div>` : ''}
<h2>${t.t('admin.pendingHeading', { count: input.waiting.length })}</h2>
${input.waiting.length ? input.waiting.map((view) => waitingSection(view, t)) : html`<p>${t.t('admin.none')}</p>`}
<h2>${t.t('admin.acceptedHeading', { count: input.accepted.length })}</h2>
${
  input.accepted.length
    ? html`<table class="admin"><thead><tr><th scope="col">${t.t('proposal.name')}</th><th scope="col">${t.t('proposal.address')}</th><th scope="col">${t.t('admin.logColumn', { column: 'at' })}</th><th scope="col"><span class="visually-hidden">${t.t('admin.remove')}</span></th></tr></thead>
<tbody>${input.accepted.map((view) => acceptedRow(view, t))}</tbody></table>`
    : ''
}
<h2>${t.t('admin.logHeading')}</h2>
${
  input.log.length
    ? html`<table class="admin"><thead><tr>${LOG_COLUMNS.map((column) => html`<th scope="col">${t.t('admin.logColumn', { column })}</th>`)}</tr></thead>
<tbody>${input.log.map((line) => logRow(line, t))}</tbody></table>`
    : html`<p>${t.t('admin.noLog')}</p>`
}`,
  );
}

/** The 401 page a browser shows when the sign-in is cancelled or wrong; the 403 page of a cross-site form. */
export function renderAdminRefusal(input: {
  t: Translator;
  baseUrl: string;
  reason: 'sign-in' | 'cross-origin';
}): string {
  const { t } = input;
  return layout(
    {
      t,
      title: `${t.t('admin.title')} · ${t.t('site.name')}`,
      description: t.t('admin.title'),
      baseUrl: input.baseUrl,
      path: '/admin',
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('admin.title')}</h1><p>${t.t(input.reason === 'sign-in' ? 'admin.signIn' : 'admin.crossOrigin')}</p>`,
  );
}
