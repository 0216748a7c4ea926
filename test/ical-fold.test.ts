import fc from 'fast-check';
import { foldLines as libraryFold } from 'ical-generator';
import { describe, expect, it } from 'vitest';
import { foldLines } from '../src/render/ical.js';

/**
 * The calendar folds its lines itself (see `foldLines` in src/render/ical.ts for why); calendar clients must get
 * exactly what ical-generator's own folding gives, octet for octet.
 */
describe('iCal line folding', () => {
  it('folds as ical-generator does, for any text', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', ' ', ';', 'ä', 'ß', 'é', '€', '中', '😀', '👩‍💻', '\ud800', '\udc00', 'x\r\ny', '\r\n'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }), (parts) => {
        const text = parts.join('');
        expect(foldLines(text)).toBe(libraryFold(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves short lines alone and folds long ones at 74 octets', () => {
    const line = `DESCRIPTION:${'a'.repeat(62)}`;
    expect(foldLines(line)).toBe(line);
    expect(foldLines(`${line}b`)).toBe(`${line}\r\n b`);
    const umlauts = `SUMMARY:${'ü'.repeat(40)}`;
    const folded = foldLines(umlauts);
    for (const physical of folded.split('\r\n')) expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(umlauts);
  });
});
