import type { FieldError } from '../../catalogue/errors.js';
import type { Translator } from '../../i18n/translator.js';
import { COUNTRIES } from '../../places/countries.js';
import { countryName, message } from './i18n.js';
import { layout } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** Which of the two forms was sent, with what, and what was wrong with it: the form is shown again as it was sent. */
export interface AddPageInput {
  t: Translator;
  baseUrl: string;
  sent?: { form: 'calendar' | 'key'; fields: Record<string, string>; errors: FieldError[] };
  /** Why a proposal is not taken now: too many from this address (minutes until the next), or too many waiting. */
  notNow?: { limited: number } | { full: true };
}

/** The page's styles, appended to the site's stylesheet. */
export const ADD_CSS = `
form.add { display: grid; gap: .6rem; background: var(--card); padding: 1rem; border-radius: .5rem; margin-bottom: 1.5rem; }
form.add .pair { display: grid; gap: .6rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); }
form.add button { justify-self: start; }
form.add .field { display: flex; flex-direction: column; gap: .2rem; font-size: .9rem; }
form.add .field label { font-size: .9rem; }
form.add .hint { font-size: .9rem; }
form.add .hint p, form.add .hint ul { margin: 0; }
form.add textarea { font: inherit; padding: .45rem .6rem; border-radius: .35rem; border: 1px solid var(--muted); background: var(--bg); color: var(--fg); min-height: 4.5rem; }
.field-error { color: #c5221f; font-weight: 600; }
.key-once { padding: .75rem 1rem; border-radius: .5rem; border: 2px solid var(--good); }
.key-once code { display: block; font-size: 1.05rem; overflow-wrap: anywhere; user-select: all; margin: .5rem 0; }
ol.preview { padding-left: 1.25rem; }
dl.facts dd { overflow-wrap: anywhere; }
ol.preview li { margin: .35rem 0; }
table.admin { width: 100%; border-collapse: collapse; font-size: .9rem; }
table.admin th, table.admin td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--card); overflow-wrap: anywhere; }
section.proposal { background: var(--card); padding: .75rem 1rem; border-radius: .5rem; margin: .75rem 0; }
section.proposal h3 { margin: 0 0 .35rem; font-size: 1.05rem; overflow-wrap: anywhere; }
form.decide { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .5rem 0 0; }
`;

/** A field's problem in the reader's language; the service's own words, marked English, when it has no message. */
export function fieldProblem(error: FieldError, t: Translator): SafeHtml {
  const field = t.t('add.field', { field: error.field });
  // The use case words an address its guard refuses "is refused: …" (a private, local or reserved one).
  if (error.field === 'url' && /^is refused\b/.test(error.message)) return html`${field}: ${t.t('add.privateAddress')}`;
  return html`${field}: <span lang="en">${error.message}</span>`;
}

function problemsOf(input: AddPageInput, form: 'calendar' | 'key'): FieldError[] {
  return input.sent?.form === form ? input.sent.errors : [];
}

/** A labelled field, its value as sent, its problem below it (named by aria-describedby) when it has one. */
function field(
  input: AddPageInput,
  form: 'calendar' | 'key',
  name: string,
  label: string,
  control: (attrs: SafeHtml, value: string) => SafeHtml,
  hint = false,
): SafeHtml {
  const { t } = input;
  const id = `${form}-${name}`;
  const value = input.sent?.form === form ? (input.sent.fields[name] ?? '') : '';
  const problem = problemsOf(input, form).find((e) => e.field === name);
  const described = [problem ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const attrs = html`id="${id}" name="${name}"${problem ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  return html`<div class="field"><label for="${id}">${label}</label>${control(attrs, value)}${problem ? html`<span class="field-error" id="${id}-error">${fieldProblem(problem, t)}</span>` : ''}</div>`;
}

function countrySelect(attrs: SafeHtml, value: string, t: Translator, optional: boolean): SafeHtml {
  const options: [string, string][] = [
    ...(optional ? ([['', t.t('add.countryNone')]] as [string, string][]) : []),
    ...COUNTRIES.map((c): [string, string] => [c, countryName(t, c)]),
  ];
  return html`<select ${attrs}${optional ? '' : html` required`}>${options.map(([v, label]) => html`<option value="${v}"${v === value ? html` selected` : ''}>${label}</option>`)}</select>`;
}

/** Problems the form's fields do not show (a field the form does not have), listed above it. */
function otherProblems(input: AddPageInput, form: 'calendar' | 'key', names: string[]): SafeHtml {
  const rest = problemsOf(input, form).filter((e) => !names.includes(e.field));
  if (rest.length === 0) return html``;
  return html`<div class="error" role="alert"><p>${input.t.t('add.errorsTitle')}</p><ul>${rest.map((e) => html`<li>${fieldProblem(e, input.t)}</li>`)}</ul></div>`;
}

/** What the address field takes, under it. */
function acceptedAddresses(t: Translator): SafeHtml {
  const code = (text: string) => html`<code>${text}</code>`;
  return html`<div class="hint" id="calendar-url-hint"><p>${t.t('add.accepted')}</p>
<ul>
<li>${message(t, 'add.acceptedMeetup', { example: code('https://www.meetup.com/rust-zurich/') })}</li>
<li>${t.t('add.acceptedLuma')}</li>
<li>${t.t('add.acceptedGoogle')}</li>
<li>${message(t, 'add.acceptedBevy', { gdg: code('gdg.community.dev'), cncf: code('community.cncf.io') })}</li>
<li>${t.t('add.acceptedIcal')}</li>
</ul></div>`;
}

function calendarForm(input: AddPageInput): SafeHtml {
  const { t } = input;
  const sentHere = problemsOf(input, 'calendar').length > 0;
  const text = (attrs: SafeHtml, value: string) => html`<input type="text" ${attrs} value="${value}">`;
  return html`<form class="add" method="post" action="/add?hl=${t.lang}">
<input type="hidden" name="form" value="calendar">
${otherProblems(input, 'calendar', ['url', 'city', 'country', 'name'])}
${field(input, 'calendar', 'url', t.t('add.url'), (attrs, value) => html`<input type="url" ${attrs} value="${value}" required inputmode="url" placeholder="https://www.meetup.com/…"${sentHere ? html` autofocus` : ''}>`, true)}
${acceptedAddresses(t)}
<div class="pair">
${field(input, 'calendar', 'city', t.t('add.city'), text)}
${field(input, 'calendar', 'country', t.t('add.country'), (attrs, value) => countrySelect(attrs, value, t, true))}
</div>
${field(input, 'calendar', 'name', t.t('add.name'), text)}
<button type="submit">${t.t('add.submitCalendar')}</button>
</form>`;
}

function keyForm(input: AddPageInput): SafeHtml {
  const { t } = input;
  return html`<form class="add" method="post" action="/add?hl=${t.lang}">
<input type="hidden" name="form" value="key">
${otherProblems(input, 'key', ['organisation', 'country', 'plans', 'website'])}
<div class="pair">
${field(input, 'key', 'organisation', t.t('add.organisation'), (attrs, value) => html`<input type="text" ${attrs} value="${value}" required>`)}
${field(input, 'key', 'country', t.t('add.keyCountry'), (attrs, value) => countrySelect(attrs, value, t, false))}
</div>
${field(input, 'key', 'plans', t.t('add.plans'), (attrs, value) => html`<textarea ${attrs} required placeholder="${t.t('add.plansPlaceholder')}">${value}</textarea>`)}
${field(input, 'key', 'website', t.t('add.website'), (attrs, value) => html`<input type="url" ${attrs} value="${value}" inputmode="url">`)}
<button type="submit">${t.t('add.submitKey')}</button>
</form>`;
}

/** GET /add: what is accepted and checked, then the two forms; sent back with its problems when a form had some. */
export function renderAddPage(input: AddPageInput): string {
  const { t } = input;
  return layout(
    {
      t,
      title: `${t.t('add.title')} · ${t.t('site.name')}`,
      description: t.t('add.description'),
      baseUrl: input.baseUrl,
      path: '/add',
      query: new URLSearchParams(),
    },
    html`<h1>${t.t('add.title')}</h1>
<p>${t.t('add.intro')} ${t.t('add.private')}</p>
${input.notNow ? html`<div class="error" role="alert"><p>${'limited' in input.notNow ? t.t('add.rateLimited', { minutes: input.notNow.limited }) : t.t('add.full')}</p></div>` : ''}
<section aria-labelledby="calendar-heading">
<h2 id="calendar-heading">${t.t('add.calendarHeading')}</h2>
${calendarForm(input)}
<p>${t.t('add.calendarHelp')}</p>
</section>
<section aria-labelledby="key-heading">
<h2 id="key-heading">${t.t('add.keyHeading')}</h2>
<p>${t.t('add.keyHelp')}</p>
${keyForm(input)}
</section>
<section aria-labelledby="moderation-heading">
<h2 id="moderation-heading">${t.t('add.moderationHeading')}</h2>
<p>${t.t('add.moderation')}</p>
</section>`,
  );
}
