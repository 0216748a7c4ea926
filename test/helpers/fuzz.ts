import fc from 'fast-check';
import { expect } from 'vitest';
import { PROBLEMS } from '../../src/catalogue/errors.js';
import type { Response } from './http.js';

/** Fragments that break out of markup, tables, calendars, SQL or text handling when not escaped. */
export const INJECTIONS = [
  '<script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '<!--',
  ']]>',
  '&amp;',
  '&#x3C;script&#x3E;',
  '|',
  '\\|',
  '||',
  '| --- |',
  '[x](javascript:alert(1))',
  '![x](http://evil.example/x.png)',
  '[',
  ']',
  '`',
  '```',
  '*',
  '**',
  '_',
  '~~',
  '#',
  '> ',
  '- ',
  '1. ',
  '\\',
  '\r\n',
  '\n',
  '\r',
  '\r\n ',
  '\r\nBEGIN:VEVENT\r\nSUMMARY:injected\r\nEND:VEVENT\r\n',
  '\nEND:VCALENDAR\n',
  ';',
  ',',
  ':',
  '\\n',
  '\\;',
  "'",
  '"',
  "' OR '1'='1",
  "'); DROP TABLE events; --",
  '"; DELETE FROM event_revisions; --',
  '$1',
  '%s',
  '%00',
  '%',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  '${7*7}',
  '\t',
  '\u0000',
  '\u000b',
  '\u000c',
  '\u0001',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u200e',
  '\u200f',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\ufffd',
  'שלום',
  'مرحبا',
  'Zürich',
  'Genève',
  '𝕏',
  '👩‍👩‍👧‍👦',
  '🇨🇭',
  'e\u0301',
  'İ',
  'ß',
] as const;

/** The last two code points of each of the 17 planes: noncharacters, like U+FDD0–U+FDEF. */
const PLANE_ENDS = Array.from({ length: 17 }, (_, plane) => {
  const end = (plane * 0x10000 + 0xfffe).toString(16);
  return `\\u{${end}}\\u{${(plane * 0x10000 + 0xffff).toString(16)}}`;
}).join('');

/**
 * Code points no output may carry, as the HTML standard lists them (its input stream's controls and noncharacters),
 * plus U+000C, which XML 1.0 and iCalendar TEXT forbid: the service refuses them in writes and removes them on import.
 */
export const FORBIDDEN_CODE_POINTS = new RegExp(
  `[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\ufdd0-\\ufdef${PLANE_ENDS}]`,
  'gu',
);

/** Whether text shows something: not only white space and Unicode's invisible (default-ignorable, format) characters. */
export const visible = (text: string) => !/^[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*$/u.test(text);

/** Lone UTF-16 surrogates: not well-formed Unicode, so the service must refuse them rather than alter them. */
export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Unicode from every plane (astral included) and grapheme clusters. */
const anyUnicode = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Strings mixing injection fragments, arbitrary Unicode, control characters and occasionally lone surrogates. */
export const hostileString = (options: { maxLength?: number; surrogates?: boolean } = {}) => {
  const pieces = [
    { weight: 5, arbitrary: fc.constantFrom(...INJECTIONS) },
    { weight: 3, arbitrary: anyUnicode },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 0x1f }).map((c) => String.fromCharCode(c)) },
    ...(options.surrogates === false ? [] : [{ weight: 1, arbitrary: loneSurrogate }]),
  ];
  return fc
    .array(fc.oneof(...pieces), { minLength: 0, maxLength: 8 })
    .map((parts) => parts.join(''))
    .map((s) => (options.maxLength === undefined ? s : s.slice(0, options.maxLength)));
};

/** Sometimes hostile, sometimes long: a random unit repeated to just below, at or just beyond a field's limit. */
export const hostileOrLong = (limit: number) =>
  fc.oneof(
    { weight: 6, arbitrary: hostileString() },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.integer({ min: limit - 2, max: limit + 2 }),
          fc.oneof(
            fc.constantFrom('x', 'ü', '|', '𝕏', '<', ' ', '\r\n'),
            fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
          ),
        )
        .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)),
    },
  );

/** Text the service must accept: well-formed, none of the forbidden code points, within the limit, visible. */
export const acceptableText = (max: number) =>
  hostileOrLong(max)
    .map((s) =>
      s.replace(FORBIDDEN_CODE_POINTS, '').replace(/[\ud800-\udfff]/g, (c, i, all) => (isPaired(all, i) ? c : '?')),
    )
    .map((s) => (s.length > max ? s.slice(0, max).replace(/[\ud800-\udbff]$/, '') : s))
    .filter((s) => visible(s) && s.isWellFormed());

function isPaired(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  const prev = s.charCodeAt(i - 1);
  return prev >= 0xd800 && prev <= 0xdbff;
}

/** Every rejection is an RFC 9457 problem with a 4xx status and a known code. */
export function expectProblem(res: Response, base: string, context = ''): void {
  expect(res.status, `${context} → ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${context} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  const body = res.body as { code: keyof typeof PROBLEMS; status: number; type: string; title: string };
  expect(Object.keys(PROBLEMS), context).toContain(body.code);
  expect(body.status, context).toBe(res.status);
  expect(PROBLEMS[body.code].status, context).toBe(res.status);
  expect(body.type, context).toBe(`${base}/problems/${body.code}`);
  expect(typeof body.title, context).toBe('string');
}

/** Never a 5xx; a non-2xx answer is a problem (except bodies of a given other type, e.g. HTML and markdown 404s). */
export function expectNoServerError(res: Response, base: string, context = '', otherTypes: RegExp[] = []): void {
  expect(res.status, `${context} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400 && !otherTypes.some((t) => t.test(res.headers.get('content-type') ?? ''))) {
    expectProblem(res, base, context);
  }
}

/** fast-check settings for suites that run against a live server: modest, reproducible with FUZZ_SEED. */
export function fuzzParams(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
  const runs = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : numRuns;
  // A failure is shrunk against the live server; bound the whole run so a slow shrink cannot hang the suite.
  return { numRuns: runs, interruptAfterTimeLimit: 50_000, ...(seed === undefined ? {} : { seed }) };
}
