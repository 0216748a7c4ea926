import { HtmlValidate } from 'html-validate';
import ICAL from 'ical.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { expect } from 'vitest';

/** Real parsers for every document the service renders, with the structural checks each must pass. */

type MdNode = { type: string; value?: string; url?: string; children?: MdNode[] };

const textOf = (node: MdNode): string => (node.value ?? '') + (node.children ?? []).map(textOf).join('');

/** Markup a table cell must never contain: it would mean a value escaped its cell. */
const FORBIDDEN_MD = [
  'html',
  'emphasis',
  'strong',
  'inlineCode',
  'code',
  'delete',
  'break',
  'image',
  'footnoteReference',
];

/**
 * Parses a markdown document of ours with the GFM parser: one level-1 heading first, the table of matches (every row
 * 5 cells) and, when the answer has near misses, a second table after a "Near misses" heading (4 cells: When, Event,
 * Where, Differs); no HTML, emphasis, code, images or breaks in the tables, and links only to `base` (the event
 * column). Returns each table's rows as cell texts, header included, and the event links of each.
 */
export function parseMarkdownDocument(markdown: string, base: string) {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MdNode;
  const top = tree.children ?? [];
  expect(top[0]?.type, 'first node').toBe('heading');
  const tables = top.filter((n) => n.type === 'table');
  expect(tables.length, 'the matches, and perhaps the near misses').toBeGreaterThanOrEqual(1);
  expect(tables.length).toBeLessThanOrEqual(2);
  const parsed = tables.map((table, i) => {
    // Values appear in the heading (the filter) and the tables; the rest is our own text (e.g. `limit=100` as code).
    const kinds = new Map<string, MdNode[]>();
    const walk = (node: MdNode) => {
      kinds.set(node.type, [...(kinds.get(node.type) ?? []), node]);
      (node.children ?? []).forEach(walk);
    };
    if (i === 0) walk(top[0]!);
    walk(table);
    for (const kind of FORBIDDEN_MD) expect(kinds.has(kind), `no ${kind} node`).toBe(false);
    const links: string[] = [];
    for (const link of kinds.get('link') ?? []) {
      // Our event links, or GFM autolink literals: a URL or e-mail address written in a value shows as itself
      // (the link text is the address, so nothing is disguised). Anything else would be injected markup.
      const text = textOf(link);
      const literal = [text, `http://${text}`, `mailto:${text}`].includes(link.url ?? '');
      if (!literal) {
        expect(link.url, 'links go to our pages').toMatch(new RegExp(`^${base}/`));
        links.push(link.url!);
      }
    }
    const rows = (table.children ?? []).map((row) => (row.children ?? []).map(textOf));
    for (const row of rows) expect(row, i === 0 ? 'five cells' : 'four cells').toHaveLength(i === 0 ? 5 : 4);
    return { rows, links };
  });
  if (tables.length === 2) {
    const before = top.slice(0, top.indexOf(tables[1]!));
    const heading = before.filter((n) => n.type === 'heading').at(-1)!;
    expect(textOf(heading), 'the near misses under their own heading').toBe('Near misses');
    expect(before.indexOf(heading), 'after the matches').toBeGreaterThan(before.indexOf(tables[0]!));
  }
  return { matches: parsed[0]!, nearMisses: parsed[1] };
}

/** The table of matches of a markdown document of ours (see parseMarkdownDocument), header included. */
export function parseMarkdownTable(markdown: string, base: string): string[][] {
  return parseMarkdownDocument(markdown, base).matches.rows;
}

/** What a table cell shows for a value: control characters and line separators as spaces, whitespace collapsed. */
export const cellText = (value: string) =>
  value
    .replace(/\p{Cc}|[\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Parses an iCalendar document with ical.js after checking the RFC 5545 framing (CRLF lines, ≤ 75 octets). */
export function parseCalendar(text: string) {
  // RFC 5545 ends every content line with CRLF, END:VCALENDAR included; ical-generator leaves the last one off
  // (and so does src/render/ical.ts), which every client tolerates. Checked: CRLF between all lines.
  const lines = text.replace(/\r\n$/, '').split('\r\n');
  for (const line of lines) {
    expect(/[\r\n]/.test(line), `no bare CR or LF: ${JSON.stringify(line.slice(0, 80))}`).toBe(false);
    expect(Buffer.byteLength(line), `line within 75 octets: ${JSON.stringify(line.slice(0, 80))}`).toBeLessThanOrEqual(
      75,
    );
  }
  const component = new ICAL.Component(ICAL.parse(text));
  expect(component.name).toBe('vcalendar');
  const events = component.getAllSubcomponents('vevent').map((v) => ({ v, e: new ICAL.Event(v) }));
  // Nothing injected: the VEVENT count seen by the parser equals the BEGIN:VEVENT lines of the document.
  expect(events.length).toBe(lines.filter((l) => l === 'BEGIN:VEVENT').length);
  return { component, events };
}

/** iCalendar TEXT has one line break (`\n`): CR LF and CR read back as LF. */
export const icalText = (value: string) => value.replace(/\r\n?/g, '\n');

type Element = DefaultTreeAdapterMap['element'];
type ChildNode = DefaultTreeAdapterMap['childNode'];

/** The elements our templates emit; anything else in a page would have come from data. */
const TAGS = new Set(
  'html head body meta title link script header main footer a span h1 h2 h3 p form label input select option button div ul ol li strong article dl dt dd section code nav time figure figcaption svg image circle text g details summary pre'.split(
    ' ',
  ),
);

export interface ParsedPage {
  elements: Element[];
  byTag(tag: string): Element[];
  text(element: Element): string;
  attr(element: Element, name: string): string | undefined;
}

/** Parses an HTML page with parse5 (the HTML5 algorithm browsers use) and checks no unexpected element appears. */
export function parsePage(html: string): ParsedPage {
  const document = parse(html);
  const elements: Element[] = [];
  const walk = (node: { childNodes?: ChildNode[] }) => {
    for (const child of node.childNodes ?? []) {
      if ('tagName' in child) {
        elements.push(child);
        walk(child.tagName === 'template' ? (child as unknown as { content: Element }).content : child);
      }
    }
  };
  walk(document);
  for (const e of elements) expect(TAGS.has(e.tagName), `unexpected <${e.tagName}>`).toBe(true);
  const text = (element: Element): string =>
    element.childNodes.map((c) => ('value' in c ? c.value : 'tagName' in c ? text(c) : '')).join('');
  return {
    elements,
    byTag: (tag) => elements.filter((e) => e.tagName === tag),
    text,
    attr: (element, name) => element.attrs.find((a) => a.name === name)?.value,
  };
}

/** What an HTML parser reads back for a text value: line breaks normalised to LF (HTML input preprocessing). */
export const htmlText = (value: string) => value.replace(/\r\n?/g, '\n');

export const PAGE_HEADERS = {
  'content-security-policy': /default-src 'none'/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
};

export function expectSecurityHeaders(headers: Headers, context = ''): void {
  for (const [name, pattern] of Object.entries(PAGE_HEADERS))
    expect(headers.get(name), `${context} ${name}`).toMatch(pattern);
  expect(headers.get('content-type'), context).toBe('text/html; charset=utf-8');
}

/** html-validate's recommended rules, less two of style (a lowercase doctype, trailing spaces in the markup). */
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: { 'doctype-style': 'off', 'no-trailing-whitespace': 'off' },
});

/** Expects a page to have no parse error of the HTML standard (parse5) and none of html-validate's findings. */
export async function validHtml(text: string, context: string): Promise<void> {
  const parseErrors: string[] = [];
  parse(text, { onParseError: (e) => parseErrors.push(`${e.code} at ${e.startLine}:${e.startCol}`) });
  expect(parseErrors, context).toEqual([]);
  const report = await validator.validateString(text);
  expect(
    report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`)),
    context,
  ).toEqual([]);
}
