import type { Translator } from '../../i18n/translator.js';
import { message } from './i18n.js';
import { layout } from './layout.js';
import { html } from './template.js';

export interface ConsentPageInput {
  t: Translator;
  baseUrl: string;
  uid: string;
  /** The client's own name for itself (unverified), else its id. */
  client: string;
  /** Where the answer sends the person: the redirect URI's origin (or scheme). */
  returnTo: string;
  handle: string;
}

/** The consent page of an OAuth authorization: who asks, what it may do, Allow or Deny (plain forms, no script). */
export function renderConsentPage(input: ConsentPageInput): string {
  const { t, uid } = input;
  const path = `/oauth/interaction/${uid}`;
  const form = (decision: 'allow' | 'deny', label: string) =>
    html`<form method="post" action="${path}?hl=${t.lang}"><input type="hidden" name="decision" value="${decision}"><button type="submit" id="oauth-${decision}">${label}</button></form>`;
  const body = html`<h1>${t.t('oauth.title')}</h1>
<p>${message(t, 'oauth.asks', { client: html`<strong>${input.client}</strong>` })} <span class="muted">${t.t('oauth.unverified')}</span></p>
<p>${t.t('oauth.scopeHeading')}</p>
<ul><li>${t.t('oauth.scopeRsvp')}</li></ul>
<p>${message(t, 'oauth.signedInAs', { handle: html`<code>${input.handle}</code>` })} ${message(t, 'oauth.returnTo', { address: html`<code>${input.returnTo}</code>` })}</p>
<div class="decide">${form('allow', t.t('oauth.allow'))} ${form('deny', t.t('oauth.deny'))}</div>`;
  return layout(
    {
      t,
      title: t.t('oauth.title'),
      description: t.t('oauth.description'),
      baseUrl: input.baseUrl,
      path,
      query: new URLSearchParams(),
    },
    body,
  );
}

/** The page of a request that is no longer open (expired, answered, or of another browser). */
export function renderConsentGonePage(input: { t: Translator; baseUrl: string; path: string }): string {
  const { t } = input;
  return layout(
    {
      t,
      title: t.t('oauth.goneTitle'),
      description: t.t('oauth.gone'),
      baseUrl: input.baseUrl,
      path: input.path,
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('oauth.goneTitle')}</h1><p>${t.t('oauth.gone')}</p>`,
  );
}
