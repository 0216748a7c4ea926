import { describe, expect, it } from 'vitest';
import { classifyKinds } from '../src/catalogue/classify-kind.js';

const base = {
  source: 'host',
  country: 'ch' as const,
  format: 'in_person' as const,
  allDay: false,
  description: null as string | null,
};
const at = (iso: string, hours: number) => ({
  start: new Date(iso),
  end: new Date(new Date(iso).getTime() + hours * 3_600_000),
});

describe('the kinds of an event', () => {
  it('a founders’ breakfast of a few hours in person is networking and a meetup', () => {
    const kinds = classifyKinds({ ...base, title: 'Gründer:innen-Frühstück Bern', ...at('2025-03-14T06:30:00Z', 1.5) });
    expect([...kinds].sort()).toEqual(['meetup', 'networking']);
  });

  it('an all-day networking forum is not a meetup', () => {
    const kinds = classifyKinds({ ...base, title: 'Founders Lunch', ...at('2025-03-14T08:00:00Z', 9) });
    expect([...kinds]).toEqual(['networking']);
  });

  it('when the title names no kind, the first sentence of the description does', () => {
    const event = {
      ...base,
      title: 'Einführung in Machine Learning mit Python',
      description: 'Ganztägiger Workshop für Einsteiger: Grundlagen von Machine Learning. Danach ein Apéro.',
      ...at('2025-03-22T08:00:00Z', 7.5),
    };
    expect([...classifyKinds(event)]).toEqual(['workshop']);
    expect([
      ...classifyKinds({ ...event, description: 'Grundlagen von Machine Learning. Danach ein Workshop.' }),
    ]).toEqual([]);
  });

  it('a description’s “day” is a span of time, not a day of talks; the title wins over the description', () => {
    const day = { ...base, title: 'Sécurité pour tous', ...at('2025-03-08T09:00:00Z', 7) };
    expect([...classifyKinds({ ...day, description: 'Une journée pour découvrir la sécurité informatique.' })]).toEqual(
      [],
    );
    expect([...classifyKinds({ ...day, title: 'Atelier CTF', description: 'Une conférence.' })]).toEqual(['workshop']);
  });

  it('the conference data sets list conferences whatever their descriptions say', () => {
    const kinds = classifyKinds({
      ...base,
      source: 'confs-tech',
      title: 'JavaScript & Angular Days',
      description: 'Workshops for three days.',
      ...at('2025-03-10T08:00:00Z', 30),
    });
    expect([...kinds]).toEqual(['conference']);
  });
});
