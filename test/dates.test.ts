import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findDateWindow } from '../src/query/prompt/dates.js';

const ZRH = 'Europe/Zurich';
const SUNDAY = new Date('2026-11-22T12:00:00Z');
const FRIDAY = new Date('2026-11-27T10:00:00Z');
/** Sunday 23:30 UTC is already Monday 00:30 in Zurich. */
const NEAR_MIDNIGHT = new Date('2026-11-22T23:30:00Z');

function w(text: string, now = SUNDAY, zone = ZRH) {
  const h = findDateWindow(text, now, zone);
  return h && { from: h.from.toISOString(), to: h.to.toISOString(), kind: h.kind };
}

/** The local day window [day 00:00, next day 00:00) in Zurich during CET (UTC+1). */
function cetDay(isoDate: string) {
  const from = new Date(`${isoDate}T00:00:00+01:00`);
  return { from: from.toISOString(), to: new Date(from.getTime() + 86_400_000).toISOString(), kind: 'day' };
}

describe('weekends', () => {
  it('on a Sunday, "this weekend" is today\'s weekend, Sat 00:00 to Mon 00:00 local', () => {
    const hit = findDateWindow('this weekend', SUNDAY, ZRH)!;
    expect(hit.from.toISOString()).toBe('2026-11-20T23:00:00.000Z');
    expect(hit.to.toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(hit.kind).toBe('weekend');
    const sundayLate = new Date('2026-11-22T22:30:00Z'); // Sunday 23:30 in Zurich
    expect(sundayLate >= hit.from && sundayLate < hit.to).toBe(true);
  });

  it.each([
    'this weekend',
    'am Wochenende',
    'dieses Wochenende',
    'ce week-end',
    'le week-end',
    'questo fine settimana',
    'weekend',
  ])('on a Friday, "%s" is the coming Sat–Sun', (text) => {
    expect(w(text, FRIDAY)).toEqual({
      from: '2026-11-27T23:00:00.000Z',
      to: '2026-11-29T23:00:00.000Z',
      kind: 'weekend',
    });
  });

  it.each(['next weekend', 'nächstes Wochenende', 'le week-end prochain', 'il prossimo fine settimana'])(
    'on a Friday, "%s" is the weekend after',
    (text) => {
      expect(w(text, FRIDAY)).toEqual({
        from: '2026-12-04T23:00:00.000Z',
        to: '2026-12-06T23:00:00.000Z',
        kind: 'weekend',
      });
    },
  );

  it('spans the DST switch: Monday 00:00 is CEST', () => {
    expect(w('this weekend', new Date('2026-03-25T12:00:00Z'))).toEqual({
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-29T22:00:00.000Z',
      kind: 'weekend',
    });
  });
});

describe('weeks and day spans', () => {
  it.each([
    'next week',
    'nächste Woche',
    'kommende Woche',
    'in der nächsten Woche',
    'la semaine prochaine',
    'la prochaine semaine',
    'la settimana prossima',
  ])('"%s" from a Sunday is Mon 23 Nov → Mon 30 Nov', (text) => {
    expect(w(text)).toEqual({ from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z', kind: 'week' });
  });

  it('"this week" runs from today to the end of Sunday', () => {
    expect(w('diese Woche')).toEqual({
      from: '2026-11-21T23:00:00.000Z',
      to: '2026-11-22T23:00:00.000Z',
      kind: 'week',
    });
    const wednesday = new Date('2026-11-25T08:00:00Z');
    for (const text of ['this week', 'cette semaine', 'questa settimana']) {
      expect(w(text, wednesday)).toEqual({
        from: '2026-11-24T23:00:00.000Z',
        to: '2026-11-29T23:00:00.000Z',
        kind: 'week',
      });
    }
  });

  it.each([
    ['in den nächsten 14 Tagen', '2026-12-06T23:00:00.000Z'],
    ['in the next 2 weeks', '2026-12-06T23:00:00.000Z'],
    ['the next two weeks', '2026-12-06T23:00:00.000Z'],
    ['dans les 10 prochains jours', '2026-12-02T23:00:00.000Z'],
    ['within 30 days', '2026-12-22T23:00:00.000Z'],
    ['nei prossimi 7 giorni', '2026-11-29T23:00:00.000Z'],
  ])('"%s" runs from now to the end of the last local day', (text, to) => {
    expect(w(text)).toEqual({ from: SUNDAY.toISOString(), to, kind: 'days' });
  });
});

describe('months', () => {
  const december = { from: '2026-11-30T23:00:00.000Z', to: '2026-12-31T23:00:00.000Z', kind: 'month' };
  it.each([
    'in December',
    'im Dezember',
    'en décembre',
    'a dicembre',
    'Dezember 2026',
    'dec',
    'next month',
    'nächsten Monat',
    'le mois prochain',
  ])('"%s" in November 2026 is December 2026', (text) => {
    expect(w(text)).toEqual(december);
  });

  it('takes the next occurrence; the current month counts; explicit years are honoured', () => {
    expect(w('in March')).toEqual({ from: '2027-02-28T23:00:00.000Z', to: '2027-03-31T22:00:00.000Z', kind: 'month' });
    expect(w('im November')).toEqual({
      from: '2026-10-31T23:00:00.000Z',
      to: '2026-11-30T23:00:00.000Z',
      kind: 'month',
    });
    expect(w('Jan 2027')).toEqual({ from: '2026-12-31T23:00:00.000Z', to: '2027-01-31T23:00:00.000Z', kind: 'month' });
    expect(w('Dezember 2025')).toBeUndefined();
  });

  it('"this month" is the rest of the month', () => {
    for (const text of ['this month', 'diesen Monat', 'ce mois-ci']) {
      expect(w(text)).toEqual({ from: '2026-11-21T23:00:00.000Z', to: '2026-11-30T23:00:00.000Z', kind: 'month' });
    }
  });
});

describe('years', () => {
  const y2027 = { from: '2026-12-31T23:00:00.000Z', to: '2027-12-31T23:00:00.000Z', kind: 'year' };
  it.each([
    'security conference Germany 2027',
    'in 2027',
    'Konferenzen im Jahr 2027',
    'Security-Konferenzen 2027',
    'conférences en 2027',
    'conferenze nel 2027',
    'during 2027',
  ])('"%s" is the local year 2027', (text) => {
    expect(w(text)).toEqual(y2027);
  });

  it('cuts the year and its preposition out of the prompt, and labels it', () => {
    const text = 'Security-Konferenzen in Deutschland im Jahr 2027';
    const hit = findDateWindow(text, SUNDAY, ZRH)!;
    expect(text.slice(hit.start, hit.start + hit.length)).toBe('im Jahr 2027');
    expect(hit.label).toBe('in 2027');
  });

  it('leaves a month with its year to the month: "März 2027", "March 2027", "mars 2027", "marzo 2027"', () => {
    for (const text of ['März 2027', 'March 2027', 'mars 2027', 'marzo 2027', 'im März 2027'])
      expect(w(text)).toEqual({ from: '2027-02-28T23:00:00.000Z', to: '2027-03-31T22:00:00.000Z', kind: 'month' });
    expect(w('am 3.12.2027')?.kind).toBe('day');
  });

  it('takes the current year whole (what is over is not listed anyway) and drops a year already over', () => {
    expect(w('in 2026')).toEqual({ from: '2025-12-31T23:00:00.000Z', to: '2026-12-31T23:00:00.000Z', kind: 'year' });
    expect(w('events 2025')).toBeUndefined();
    expect(w('im März 2026')).toBeUndefined();
  });

  it('reads no year inside a word or a number', () => {
    for (const text of ['JDK 2026x', 'room 12027', 'v2027']) expect(w(text)).toBeUndefined();
  });
});

describe('days', () => {
  it.each(['tomorrow', 'morgen', 'demain', 'domani'])('"%s" is Mon 23 Nov', (text) => {
    expect(w(text)).toEqual(cetDay('2026-11-23'));
  });

  it.each(['today', 'heute', "aujourd'hui", 'aujourd’hui', 'oggi'])('"%s" is Sun 22 Nov', (text) => {
    expect(w(text)).toEqual(cetDay('2026-11-22'));
  });

  it('"tonight" is today 17:00 to midnight', () => {
    for (const text of ['tonight', 'heute Abend', 'ce soir']) {
      expect(w(text)).toEqual({ from: '2026-11-22T16:00:00.000Z', to: '2026-11-22T23:00:00.000Z', kind: 'day' });
    }
  });

  it.each(['next Friday', 'nächsten Freitag', 'vendredi prochain', 'venerdì prossimo', 'am Freitag'])(
    '"%s" (chrono) is the local day Fri 27 Nov',
    (text) => {
      expect(w(text)).toEqual(cetDay('2026-11-27'));
    },
  );

  it.each(['on 4 December', 'Dec 4', 'am 4. Dezember', 'le 4 décembre', '4.12.', '04.12.2026'])(
    '"%s" is Fri 4 Dec',
    (text) => {
      expect(w(text)).toEqual(cetDay('2026-12-04'));
    },
  );

  it.each(['3.-5. Dezember', 'du 3 au 5 décembre', 'Dec 3-5', '3.-5.12.'])(
    '"%s" is 3 Dec 00:00 → 6 Dec 00:00 local',
    (text) => {
      expect(w(text)).toEqual({ from: '2026-12-02T23:00:00.000Z', to: '2026-12-05T23:00:00.000Z', kind: 'range' });
    },
  );

  it('drops windows entirely in the past', () => {
    for (const text of ['yesterday', 'gestern', 'last week', '3 Nov 2026', '1.11.2026'])
      expect(w(text)).toBeUndefined();
  });
});

describe('phrase position and labels', () => {
  it.each([
    ['AI meetups in Zürich next week', 'next week'],
    ['KI Meetup nächste Woche in Berlin', 'nächste Woche'],
    ['Événements ce week-end à Genève', 'ce week-end'],
    ['Rust Meetup im Dezember', 'im Dezember'],
    ['Konferenzen am 3. Dezember in Wien', 'am 3. Dezember'],
    ['meetups le 3 décembre à Lausanne', 'le 3 décembre'],
    ['Meetup am 3.12. in Zürich', 'am 3.12.'],
    ['AI events in the next 2 weeks', 'in the next 2 weeks'],
  ])('in "%s" the phrase is "%s"', (text, phrase) => {
    const hit = findDateWindow(text, SUNDAY, ZRH)!;
    expect(text.slice(hit.start, hit.start + hit.length)).toBe(phrase);
  });

  it('returns the leftmost phrase when there are several', () => {
    expect(findDateWindow('next Friday or next week', SUNDAY, ZRH)?.kind).toBe('day');
    expect(findDateWindow('im Dezember oder nächste Woche', SUNDAY, ZRH)?.kind).toBe('month');
  });

  it('labels are short human restatements', () => {
    const label = (text: string, now = SUNDAY) => findDateWindow(text, now, ZRH)?.label;
    expect(label('next week')).toBe('next week (23–29 Nov 2026)');
    expect(label('this weekend', FRIDAY)).toBe('this weekend (28–29 Nov)');
    expect(label('tomorrow')).toBe('tomorrow (Mon 23 Nov)');
    expect(label('in December')).toBe('in December 2026');
    expect(label('on 4 December')).toBe('on Fri 4 Dec');
    expect(label('3.-5. Dezember')).toBe('on 3–5 Dec');
    expect(label('in den nächsten 14 Tagen')).toBe('next 14 days (22 Nov – 6 Dec 2026)');
  });

  it.each([
    'Berlin',
    'AI',
    'founders',
    'Python 3.12 workshop',
    'it may rain',
    'talk by Jan Müller',
    'things to do in Munich',
    'Mo Salah talk',
    'one day workshop',
    '3 days conference',
    'startup pitch night',
    'meetup at 18:00',
  ])('"%s" has no date window', (text) => {
    expect(findDateWindow(text, SUNDAY, ZRH)).toBeUndefined();
  });
});

describe('time zones', () => {
  it('near midnight, "today" is the target zone\'s day, not UTC\'s', () => {
    expect(w('today', NEAR_MIDNIGHT)).toEqual(cetDay('2026-11-23'));
    expect(w('heute', NEAR_MIDNIGHT)).toEqual(cetDay('2026-11-23'));
    expect(w('tomorrow', NEAR_MIDNIGHT)).toEqual(cetDay('2026-11-24'));
    expect(w('Monday', NEAR_MIDNIGHT)).toEqual(cetDay('2026-11-23'));
    expect(w('today', NEAR_MIDNIGHT, 'America/New_York')).toEqual({
      from: '2026-11-22T05:00:00.000Z',
      to: '2026-11-23T05:00:00.000Z',
      kind: 'day',
    });
  });

  it('rejects an unknown zone', () => {
    expect(() => findDateWindow('today', SUNDAY, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('gives identical windows whatever the process time zone', () => {
    const texts = [
      'today',
      'tomorrow',
      'morgen',
      'next Friday',
      'Monday',
      'am 3. Dezember',
      '3.12.',
      'Dec 3 - Jan 5',
      'this weekend',
      'in 3 days',
    ];
    const run = `const { findDateWindow } = await import('./src/query/prompt/dates.ts');
      const texts = JSON.parse(process.env.DATE_TEXTS);
      console.log(JSON.stringify(texts.map((t) => findDateWindow(t, new Date(process.env.DATE_NOW), 'Europe/Zurich'))));`;
    const root = fileURLToPath(new URL('..', import.meta.url));
    const expected = JSON.stringify(texts.map((t) => findDateWindow(t, NEAR_MIDNIGHT, ZRH)));
    for (const tz of ['UTC', 'America/New_York', 'Pacific/Kiritimati']) {
      const env = { ...process.env, TZ: tz, DATE_TEXTS: JSON.stringify(texts), DATE_NOW: NEAR_MIDNIGHT.toISOString() };
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', run], {
        cwd: root,
        env,
      });
      expect(out.toString().trim(), tz).toBe(expected);
    }
  });
});
