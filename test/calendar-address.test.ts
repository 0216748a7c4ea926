import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/catalogue/errors.js';
import { recognizeCalendar } from '../src/importers/calendar-address.js';

const ICAL = 'https://www.meetup.com/zurich-ai-meetup/events/ical/';

describe('recognizeCalendar', () => {
  it.each([
    'https://www.meetup.com/zurich-ai-meetup/',
    'https://www.meetup.com/zurich-ai-meetup',
    'https://www.meetup.com/zurich-ai-meetup/events/',
    'https://www.meetup.com/zurich-ai-meetup/events/ical/',
    'https://www.meetup.com/zurich-ai-meetup/events/312345678/',
    'https://meetup.com/zurich-ai-meetup/',
    'http://meetup.com/Zurich-AI-Meetup/?utm_source=x#about',
    'https://www.meetup.com/de-DE/zurich-ai-meetup/',
    'https://www.meetup.com/fr-FR/zurich-ai-meetup/events/',
    'webcal://www.meetup.com/zurich-ai-meetup/events/ical/',
  ])('reads the Meetup group page %s as its iCal export', (input) => {
    expect(recognizeCalendar(input)).toEqual({ url: ICAL, platform: 'meetup', format: 'ical', id: 'zurich-ai-meetup' });
  });

  it.each([
    'https://www.meetup.com/',
    'https://www.meetup.com/find/?location=ch--zurich',
    'https://www.meetup.com/de-DE/',
    'https://www.meetup.com/topics/rust/',
  ])('refuses the Meetup page %s that is no group’s', (input) => {
    expect(() => recognizeCalendar(input)).toThrow(ValidationError);
  });

  const GOOGLE_ID = 'c_0123abcd@group.calendar.google.com';
  const GOOGLE = `https://calendar.google.com/calendar/ical/${encodeURIComponent(GOOGLE_ID)}/public/basic.ics`;
  it.each([
    `https://calendar.google.com/calendar/embed?src=${encodeURIComponent(GOOGLE_ID)}&ctz=Europe%2FZurich`,
    `https://calendar.google.com/calendar/u/0/embed?height=600&src=${GOOGLE_ID}`,
    `https://calendar.google.com/calendar/u/0?cid=${Buffer.from(GOOGLE_ID).toString('base64')}`,
    `https://calendar.google.com/calendar/r?cid=${Buffer.from(GOOGLE_ID).toString('base64url')}`,
    `https://calendar.google.com/calendar/render?cid=${GOOGLE_ID}`,
    `https://calendar.google.com/calendar/ical/c_0123abcd%40group.calendar.google.com/public/basic.ics`,
    `webcal://calendar.google.com/calendar/ical/${GOOGLE_ID}/public/basic.ics`,
  ])('reads the Google calendar link %s as its public iCal feed', (input) => {
    expect(recognizeCalendar(input)).toEqual({ url: GOOGLE, platform: 'google', format: 'ical', id: GOOGLE_ID });
  });

  it('refuses a Google Calendar page that names no calendar', () => {
    expect(() => recognizeCalendar('https://calendar.google.com/calendar/u/0/r')).toThrow(/names no public calendar/);
  });

  it('takes any other http(s) or webcal URL as an iCal feed, normalised', () => {
    expect(recognizeCalendar('webcal://Example.ORG/cal.ics#x')).toEqual({
      url: 'https://example.org/cal.ics',
      platform: 'ical',
      format: 'ical',
    });
    expect(recognizeCalendar(' http://127.0.0.1:8080/g/events/ical/?a=1 ').url).toBe(
      'http://127.0.0.1:8080/g/events/ical/?a=1',
    );
  });

  it.each(['ftp://example.org/cal.ics', 'not a url', 'https://user:pw@example.org/cal.ics', 'file:///etc/passwd'])(
    'refuses %s on the field url',
    (input) => {
      try {
        recognizeCalendar(input);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).errors[0]!.field).toBe('url');
      }
    },
  );
});

describe('recognizeCalendar: Luma', () => {
  const FEED = 'https://api2.luma.com/ics/get?entity=calendar&id=cal-Jtv8unXGuMkfqFs';
  it.each([
    'https://api.lu.ma/ics/get?entity=calendar&id=cal-Jtv8unXGuMkfqFs',
    'http://api2.luma.com/ics/get?entity=calendar&id=cal-Jtv8unXGuMkfqFs',
    'https://luma.com/ics/get?entity=calendar&id=cal-Jtv8unXGuMkfqFs',
    'webcal://api.lu.ma/ics/get?id=cal-Jtv8unXGuMkfqFs&entity=calendar',
    'https://lu.ma/embed/calendar/cal-Jtv8unXGuMkfqFs/events',
    'https://luma.com/calendar/cal-Jtv8unXGuMkfqFs',
  ])('reads %s as the calendar’s feed, one address for all', (input) => {
    expect(recognizeCalendar(input)).toEqual({
      url: FEED,
      platform: 'luma',
      format: 'ical',
      id: 'cal-Jtv8unXGuMkfqFs',
    });
  });

  it('reads a city’s feed as a feed of that city', () => {
    expect(recognizeCalendar('https://api.lu.ma/ics/get?entity=discover&id=discplace-BDj7GNbGlsF7Cka')).toEqual({
      url: 'https://api2.luma.com/ics/get?entity=discover&id=discplace-BDj7GNbGlsF7Cka',
      platform: 'luma',
      format: 'ical',
      id: 'discplace-BDj7GNbGlsF7Cka',
    });
  });

  it.each([
    ['https://lu.ma/zurich-ai', /does not carry its calendar’s iCal address: .*Add iCal Subscription/],
    ['https://luma.com/ns', /Add iCal Subscription.*entity=calendar&id=cal-/],
    ['https://api.lu.ma/ics/get?u=usr-abc123', /person’s own Luma feed/],
    ['https://api.lu.ma/ics/get?entity=calendar', /without a calendar’s id/],
  ])('refuses %s, saying which link to give', (input, message) => {
    expect(() => recognizeCalendar(input)).toThrow(ValidationError);
    expect(() => recognizeCalendar(input)).toThrow(message);
  });
});

describe('recognizeCalendar: Bevy chapters (GDG, CNCF)', () => {
  it.each([
    ['https://community.cncf.io/api/event/?chapter=258&status=Completed', '258'],
    ['https://community.cncf.io/api/event_slim/for_chapter/258/?page_size=3', '258'],
    ['https://community.cncf.io/api/chapter/258/event/', '258'],
    ['https://community.cncf.io/accounts/dashboard/#/chapter-258/analytics/overview', '258'],
  ])('reads %s as the chapter’s upcoming events list', (input, chapter) => {
    expect(recognizeCalendar(input)).toEqual({
      url: `https://community.cncf.io/api/event/?chapter=${chapter}&status=Live`,
      platform: 'bevy',
      format: 'bevy',
      id: chapter,
    });
  });

  it('refuses a chapter’s page, which does not carry its number, saying where the number is', () => {
    expect(() => recognizeCalendar('https://community.cncf.io/cloud-native-zurich/')).toThrow(
      /does not carry the chapter’s number .*api\/event\/\?chapter=<number>.*#\/chapter-<number>\/.*api\/search\/chapter\/\?q=cloud%20native%20zurich/,
    );
    expect(() => recognizeCalendar('https://community.cncf.io/api/event/?chapter=cloud-native-zurich')).toThrow(
      ValidationError,
    );
  });

  it.each([
    'https://gdg.community.dev/gdg-zurich/',
    'https://gdg.community.dev/api/event/?chapter=642',
    'https://gdg.community.dev/accounts/dashboard/#/chapter-642/analytics/overview',
    'https://gdsc.community.dev/api/event/?chapter=1833',
  ])('refuses the Google Developer Groups address %s: their robots.txt keeps readers out of the API', (input) => {
    expect(() => recognizeCalendar(input)).toThrow(/robots\.txt asks automated readers to keep out of \/api\//);
  });
});
