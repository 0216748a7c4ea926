import { withoutForbidden } from '../../catalogue/text.js';

/**
 * A minimal auto-escaping HTML template tag. Every interpolated value is escaped unless it is itself the
 * result of `html` (a SafeHtml). Three server-rendered pages do not justify a template engine; this is the
 * whole of what they need, and it makes forgetting to escape impossible.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Markup characters as entities; what HTML forbids in its input (a query may hold it) left out. */
export function escapeHtml(text: string): string {
  return withoutForbidden(text).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** JSON for a `<script type="application/ld+json">` block: `<` escaped so no value can close the element. */
export function jsonForScript(data: unknown): SafeHtml {
  return new SafeHtml(
    JSON.stringify(data)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}
