import { translator } from '../../i18n/translator.js';
import type { SourcesView, SourceView } from '../../use-cases/list-sources.js';
import { layout } from './layout.js';
import { html, type SafeHtml } from './template.js';

/** "2026-11-23T14:05:09.000Z" → "23 Nov 2026, 14:05 UTC" (the page is for people; the JSON keeps ISO). */
function when(iso: string | null): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${date}, ${d.toISOString().slice(11, 16)} UTC`;
}

function state(s: SourceView): string {
  if (s.feed && !s.enabled) return 'off (listed in the feeds file, not synced)';
  if (s.lastError) return `failing (${s.failures} run${s.failures === 1 ? '' : 's'}): ${s.lastError}`;
  if (s.lastSuccess) return 'ok';
  if (s.snapshot) return 'shipped snapshot, not synced yet';
  return s.feed ? 'not synced yet' : '—';
}

function row(s: SourceView): SafeHtml {
  const name = s.about ? html`<a href="${s.about}">${s.source}</a>` : html`${s.source}`;
  const snapshot = s.snapshot
    ? html`<br><span class="muted">snapshot of ${s.snapshot.of ?? 'unknown date'}</span>`
    : '';
  return html`<tr>
<td>${name}</td><td>${s.kind}</td><td>${s.licence ?? '—'}</td><td>${state(s)}</td>
<td>${when(s.lastSuccess)}${snapshot}</td><td>${when(s.lastAttempt)}</td>
<td>${s.counts.listed}</td><td>${s.counts.cancelled}</td>
</tr>`;
}

/** GET /sources: every source of the catalogue with its state, as `GET /api/sources` gives it. */
export function renderSourcesPage(baseUrl: string, view: SourcesView): string {
  const sync =
    view.syncIntervalMinutes > 0
      ? `Feeds are synced every ${view.syncIntervalMinutes >= 60 && view.syncIntervalMinutes % 60 === 0 ? `${view.syncIntervalMinutes / 60} hours` : `${view.syncIntervalMinutes} minutes`}.`
      : 'Syncing is off in this service.';
  return layout(
    {
      title: 'Sources · Tech events',
      description: 'Where the events of this catalogue come from, under which licence, and how current each source is.',
      t: translator('en'),
      baseUrl,
      path: '/sources',
      query: new URLSearchParams(),
    },
    html`<h1>Sources</h1>
<p>Last refreshed: ${when(view.lastRefreshed)}. ${sync} Also as JSON: <a href="/api/sources">/api/sources</a>.</p>
<table>
<thead><tr><th scope="col">Source</th><th scope="col">Kind</th><th scope="col">Licence</th><th scope="col">State</th>
<th scope="col">Last success</th><th scope="col">Last attempt</th><th scope="col">Upcoming</th><th scope="col">Cancelled</th></tr></thead>
<tbody>
${view.sources.map(row)}
</tbody>
</table>`,
  );
}
