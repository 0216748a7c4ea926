import type { CatalogueEvent } from '../../catalogue/event.js';
import { formatWhen, machineTime } from '../../i18n/dates.js';
import type { Translator } from '../../i18n/translator.js';
import { eventPageUrl } from '../event-json.js';
import { titleLang, withLanguage } from './i18n.js';
import { layout } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** One RSVP on /me: the event and where the attendee stands. */
export interface MeRsvp {
  event: CatalogueEvent;
  status: 'registered' | 'waitlisted' | 'requested' | 'declined';
  waitlistPlace: number | null;
}

export interface MePageInput {
  t: Translator;
  baseUrl: string;
  /** The address of /assets/passkey.js (with its version): @simplewebauthn/browser's bundle and ours (routes/me.ts). */
  script: string;
  /** A same-site path to go on to once signed in (an OAuth consent, an event page). */
  returnTo?: string | undefined;
  signedIn?: { handle: string; calendarUrl: string; rsvps: readonly MeRsvp[] } | undefined;
}

export const ME_CSS = `
section.passkeys { display: grid; gap: .75rem; background: var(--card); padding: 1rem; border-radius: .5rem; margin-bottom: 1.5rem; }
section.passkeys p { margin: 0; }
ul.rsvps { padding-left: 1.25rem; }
ul.rsvps li { margin: .35rem 0; }
.calendar-url { display: block; overflow-wrap: anywhere; user-select: all; margin: .5rem 0; }
form.rsvp { display: inline-block; margin: 0 .5rem .5rem 0; }
`;

/**
 * Texts the script shows, in the page's language, and where it goes once done. The page's buttons are disabled
 * until /assets/passkey.js has wired them (a click before would do nothing).
 */
function scriptData(input: MePageInput): SafeHtml {
  const { t } = input;
  const next = input.returnTo ?? withLanguage('/me', new URLSearchParams(), t.lang);
  return html` data-return="${next}" data-working="${t.t('me.working')}" data-failed="${t.t('me.failed')}" data-confirm="${t.t('me.deleteConfirm')}"`;
}

function signedOut(input: MePageInput): SafeHtml {
  const { t } = input;
  return html`<section class="passkeys" id="passkeys"${scriptData(input)} aria-describedby="passkey-status">
<p>${t.t('me.createHelp')}</p>
<p><button type="button" disabled id="create-passkey">${t.t('me.create')}</button></p>
<p>${t.t('me.signInHelp')}</p>
<p><button type="button" disabled id="sign-in-passkey">${t.t('me.signIn')}</button></p>
<p id="passkey-status" role="status" aria-live="polite"></p>
<noscript><p>${t.t('me.noScript')}</p></noscript>
</section>`;
}

function rsvpItem(rsvp: MeRsvp, input: MePageInput): SafeHtml {
  const { t } = input;
  const { event } = rsvp;
  const page = eventPageUrl(input.baseUrl, event).slice(input.baseUrl.length);
  const status = t.t('me.status', { status: rsvp.status, place: rsvp.waitlistPlace ?? 0 });
  return html`<li data-event="${event.id}" data-status="${rsvp.status}"><a href="${withLanguage(page, new URLSearchParams(), t.lang)}"${titleLang(event, t)}>${event.title}</a> · <time datetime="${machineTime(event)}">${formatWhen(event, t)}</time> · <strong>${status}</strong>${event.lifecycle === 'cancelled' ? html` · <span class="notice">${t.t('me.cancelled')}</span>` : ''}</li>`;
}

function signedInView(input: MePageInput, me: NonNullable<MePageInput['signedIn']>): SafeHtml {
  const { t } = input;
  return html`<section class="passkeys" id="passkeys"${scriptData(input)}>
<p>${t.t('me.signedInAs', { handle: me.handle })}</p>
${input.returnTo ? html`<p><a class="cta" id="continue" href="${input.returnTo}">${t.t('me.continue')}</a></p>` : ''}
<p><button type="button" disabled id="sign-out">${t.t('me.signOut')}</button></p>
<p id="passkey-status" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="rsvps-heading">
<h2 id="rsvps-heading">${t.t('me.rsvpsHeading')}</h2>
${me.rsvps.length ? html`<ul class="rsvps" id="rsvps">${me.rsvps.map((r) => rsvpItem(r, input))}</ul>` : html`<p id="rsvps">${t.t('me.none')}</p>`}
</section>
<section aria-labelledby="calendar-heading">
<h2 id="calendar-heading">${t.t('me.calendarHeading')}</h2>
<p>${t.t('me.calendarHelp')}</p>
<code class="calendar-url" id="calendar-url">${me.calendarUrl}</code>
<p><button type="button" disabled id="rotate-calendar">${t.t('me.rotate')}</button></p>
</section>
<section aria-labelledby="delete-heading">
<h2 id="delete-heading">${t.t('me.deleteHeading')}</h2>
<p>${t.t('me.deleteHelp')}</p>
<p><button type="button" disabled id="delete-identity">${t.t('me.delete')}</button></p>
</section>`;
}

/** GET /me: the passkey buttons when signed out; the attendee's RSVPs, private calendar, sign out and delete else. */
export function renderMePage(input: MePageInput): string {
  const { t } = input;
  const query = new URLSearchParams(input.returnTo ? { return: input.returnTo } : {});
  return layout(
    {
      t,
      title: `${t.t('me.title')} · ${t.t('site.name')}`,
      description: t.t('me.description'),
      baseUrl: input.baseUrl,
      path: '/me',
      query,
      canonical: `${input.baseUrl}${withLanguage('/me', new URLSearchParams(), t.lang)}`,
      scripts: [input.script],
    },
    html`<h1>${t.t('me.title')}</h1>
<p>${t.t('me.intro')}</p>
${input.signedIn ? signedInView(input, input.signedIn) : signedOut(input)}`,
  );
}

export interface RsvpResultInput {
  t: Translator;
  baseUrl: string;
  event: CatalogueEvent;
  /** The answer, or why it was not done (the service's words, in English). */
  outcome:
    | { status: 'registered' | 'waitlisted' | 'requested' | 'declined' | 'withdrawn'; place: number; changed: boolean }
    | { failed: string };
}

/** The small, never cached answer to the Register and Withdraw forms of an event page. */
export function renderRsvpResult(input: RsvpResultInput): string {
  const { t, event, outcome } = input;
  const page = eventPageUrl(input.baseUrl, event).slice(input.baseUrl.length);
  const said =
    'failed' in outcome
      ? html`<div class="error" role="alert"><p>${t.t('rsvp.failed')} <span lang="en">${outcome.failed}</span></p></div>`
      : html`<p id="rsvp-result" data-status="${outcome.status}">${t.t('rsvp.result', { status: outcome.status, title: event.title, place: outcome.place })}</p>${outcome.changed ? '' : html`<p>${t.t('rsvp.unchanged')}</p>`}`;
  return layout(
    {
      t,
      title: `${t.t('rsvp.resultTitle')} · ${event.title}`,
      description: t.t('rsvp.resultTitle'),
      baseUrl: input.baseUrl,
      path: page,
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('rsvp.resultTitle')}</h1>
${said}
<p><a href="${withLanguage(page, new URLSearchParams(), t.lang)}">${t.t('rsvp.back')}</a> · <a href="${withLanguage('/me', new URLSearchParams(), t.lang)}">${t.t('rsvp.mine')}</a></p>`,
  );
}
