import { html, type SafeHtml } from './template.js';

export interface PageMeta {
  title: string;
  description: string;
  /** Canonical URL of the page (OpenGraph og:url). */
  url: string;
  head?: SafeHtml;
}

/** The shell of every page: accessible landmarks, OpenGraph tags, one stylesheet (CSP allows nothing inline). */
export function layout(meta: PageMeta, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${meta.title}</title>
<meta name="description" content="${meta.description}">
<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
<meta property="og:url" content="${meta.url}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="Tech events · ch · de · at">
<link rel="canonical" href="${meta.url}">
<link rel="stylesheet" href="/assets/site.css">
${meta.head}
</head>
<body>
<header class="site"><a href="/" class="brand">Tech events</a> <span class="muted">Switzerland · Germany · Austria</span></header>
<main id="main">
${body}
</main>
<footer class="site muted">Free and open: <a href="/docs">API</a> · <a href="/api/openapi.json">OpenAPI</a> · MCP at <code>/api/mcp</code>. We sell no tickets; every event links to its host.</footer>
</body>
</html>
`.value;
}

/** Security headers of every HTML page: a strict CSP (no scripts at all), no sniffing, little referrer. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

export const SITE_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1f; --muted: #5f6368; --accent: #0b57d0; --bg: #fff; --card: #f6f7f9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --muted: #a0a4a8; --accent: #8ab4f8; --bg: #121316; --card: #1d1f23; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 56rem; padding: 1rem; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
.site { display: flex; gap: .75rem; align-items: baseline; padding: .5rem 0; }
.brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; }
.muted { color: var(--muted); }
form.search { display: grid; gap: .5rem; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); background: var(--card); padding: 1rem; border-radius: .5rem; }
form.search .wide { grid-column: 1 / -1; }
label { display: flex; flex-direction: column; font-size: .9rem; gap: .2rem; }
input, select, button { font: inherit; padding: .45rem .6rem; border-radius: .35rem; border: 1px solid var(--muted); background: var(--bg); color: var(--fg); }
button { background: var(--accent); color: var(--bg); border: none; cursor: pointer; font-weight: 600; }
.understood { font-style: italic; }
ol.results { list-style: none; padding: 0; display: grid; gap: .75rem; }
ol.results li { background: var(--card); padding: .75rem 1rem; border-radius: .5rem; }
.reasons { display: flex; flex-wrap: wrap; gap: .35rem; padding: 0; margin: .4rem 0 0; list-style: none; }
.reasons li { font-size: .8rem; padding: .1rem .5rem; border-radius: 1rem; border: 1px solid var(--muted); background: transparent !important; }
.cta { display: inline-block; padding: .6rem 1rem; border-radius: .4rem; background: var(--accent); color: var(--bg); font-weight: 600; text-decoration: none; }
.notice { padding: .75rem 1rem; border-radius: .5rem; border: 2px solid #c5221f; }
.error { padding: .75rem 1rem; border-radius: .5rem; border: 2px solid #c5221f; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dl.facts dt { font-weight: 600; }
`;
