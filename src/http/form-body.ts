import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../catalogue/errors.js';

/** A page's form is a few short fields: far less than the JSON bodies' limit. */
export const FORM_BODY_LIMIT = 16 * 1024;

/** The charset a Content-Type names (lower case, unquoted), if any. */
const charsetOf = (type: string | undefined) => type?.match(/;\s*charset\s*=\s*("?)([^";\s]*)\1/i)?.[2]?.toLowerCase();

/**
 * HTML forms posted without JavaScript (`application/x-www-form-urlencoded`), for the routes of this plugin scope
 * only: every other route keeps taking JSON alone. The body is read as bytes and refused (400) when it is not UTF-8,
 * which a form in a UTF-8 page always is; each field is a string, a field given twice keeps its first value.
 */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT },
    (request, body, done) => {
      const charset = charsetOf(request.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        const detail = `The form is declared as ${charset}; forms are read as UTF-8 only.`;
        return done(new ServiceError('unsupported-media-type', detail), undefined);
      }
      // Percent-escapes decode to bytes too: the decoded text is checked, not only the bytes sent.
      const text = (body as Buffer).toString('latin1');
      if (!isUtf8(body as Buffer) || !isUtf8(Buffer.from(decodedBytes(text)))) {
        return done(new ServiceError('bad-request', 'The form is not valid UTF-8.'), undefined);
      }
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams((body as Buffer).toString('utf8'))) {
        if (!(name in fields)) fields[name] = value;
      }
      done(null, fields);
    },
  );
}

/** The bytes a urlencoded body stands for once `+` and `%XX` are decoded (URLSearchParams would hide bad UTF-8). */
function decodedBytes(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const hex = c === 0x25 ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else out.push(c === 0x2b ? 0x20 : c);
  }
  return Uint8Array.from(out);
}
