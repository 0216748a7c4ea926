import { describe, expect, it } from 'vitest';
import { search } from '../src/query/engine.js';
import { CatalogueIndex } from '../src/query/index/catalogue-index.js';
import { parseSearchParams } from '../src/query/params.js';
import { understandQuery } from '../src/query/prompt/understand.js';
import { describeQuery } from '../src/render/restate.js';

const NOW = new Date('2025-03-01T09:00:00Z');
const understand = (q: string) => understandQuery(q, NOW, 'Europe/Zurich');
/** How the engine restates a prompt (an empty catalogue: the sentence says what was asked, whatever matches). */
const empty = new CatalogueIndex(() => NOW);
empty.load([]);
const restated = (q: string) => describeQuery(search(empty, parseSearchParams({ q }), NOW).restatement);

describe('understanding a prompt', () => {
  it('searches no request phrase, pronoun or auxiliary as a word, in English, German, French or Italian', () => {
    const prompts = [
      "I'm looking for a Python meetup in Zürich",
      'Which Java conferences should I attend?',
      'Can you recommend a good security meetup in Vienna?',
      'gibt es Hackathons in Berlin?',
      'Ich suche ein Meetup über Data Engineering in Zürich',
      'Wir suchen einen Workshop zu Kubernetes für Einsteiger',
      'Kannst du mir ein paar KI-Meetups in Wien empfehlen?',
      'y a-t-il des meetups Python à Lausanne ?',
      "Est-ce qu'il y a des événements sur la blockchain à Genève ?",
      "J'aimerais trouver une conférence DevOps en Suisse",
      'sto cercando un evento di cybersecurity a Zurigo',
      "c'è un meetup su Kubernetes in Svizzera?",
      'Mi potete consigliare un workshop di robotica?',
    ];
    for (const q of prompts) expect(understand(q).terms, q).toEqual([]);
  });

  it('keeps the words it does not know for full text', () => {
    expect(understand('Zephyr RTOS').terms).toEqual(['Zephyr', 'RTOS']);
    expect(understand("I'm looking for something on Zephyr RTOS").terms).toEqual(['Zephyr', 'RTOS']);
  });

  it('reads "j\'ai" and "guten Morgen" as what they say, not AI or tomorrow', () => {
    expect(understand("J'ai envie d'aller à une conférence Kubernetes").topics.map((t) => t.slug)).toEqual([
      'cloud-devops',
    ]);
    expect(understand('Guten Morgen, gibt es KI-Meetups in Wien?').window).toBeUndefined();
  });

  it('tells where the person is from where the events should be', () => {
    const home = (q: string) => understand(q).home?.place.name;
    const place = (q: string) => understand(q).place?.place.name;
    for (const [q, city] of [
      ['a Rust conference, I am a senior engineer living in Munich', 'München'],
      ["I'm a student in Lausanne, any robotics events?", 'Lausanne'],
      ['I live near Bern and would like to attend a Java meetup', 'Bern'],
      ['Ich wohne in Köln und suche ein Java-Event', 'Köln'],
      ['ich bin aus Wien und interessiere mich für Datenbanken', 'Wien'],
      ["j'habite à Lausanne et je cherche un meetup data", 'Lausanne'],
      ['Je suis développeur à Lausanne et j’aimerais apprendre Kubernetes', 'Lausanne'],
      ['Sono di Zurigo e cerco un hackathon', 'Zürich'],
      ['From Zurich. Which product management events should I attend?', 'Zürich'],
    ] as [string, string][]) {
      expect(home(q), q).toBe(city);
      expect(place(q), q).toBeUndefined();
    }
    for (const [q, city] of [
      ["I'm looking for a Python meetup in Zürich", 'Zürich'],
      ['Ci sono eventi di intelligenza artificiale a Zurigo?', 'Zürich'],
      ['Are there any AI meetups in Vienna?', 'Wien'],
      ['ich bin auf der Suche nach einem Meetup in Berlin', 'Berlin'],
    ] as [string, string][]) {
      expect(place(q), q).toBe(city);
      expect(home(q), q).toBeUndefined();
    }
    const both = understand('I live in Zürich, any AI events in Basel?');
    expect([both.home?.place.name, both.place?.place.name]).toEqual(['Zürich', 'Basel']);
  });

  it('says the person’s place apart from the place asked', () => {
    expect(restated('I live in Zürich and I am interested in AI')).toBe(
      'AI & ML events in Switzerland, nearest to your base in Zürich first',
    );
    expect(restated('AI events in Zürich')).toBe('AI & ML events in or near Zürich');
  });

  it('reads a word more specific than its field as a technology, and restates it as asked', () => {
    const java = understand('Java Konferenz');
    expect(java.topics).toEqual([{ slug: 'programming-languages', term: 'Java', specific: true }]);
    expect(java.technologies.map((t) => t.ids)).toEqual([['java']]);
    expect(restated('Java Konferenz')).toBe('Java conferences in Switzerland');
    expect(understand('KI Hamburg').technologies).toEqual([]);
    expect(restated('KI Hamburg')).toBe('AI & ML events in or near Hamburg');
  });

  it('reads a word naming a field and an audience once, as the field', () => {
    const cto = understand('What is a good conference for a CTO in Munich?');
    expect(cto.topics.map((t) => t.slug)).toEqual(['leadership']);
    expect(cto.seniority).toEqual([]);
    expect(understand('events for senior engineers').seniority).toEqual(['senior']);
  });

  it('reads a call for papers in every language as cfp=open, and a language wish as a wish, never as words', () => {
    for (const q of [
      'Call for Papers offen für Security-Konferenzen',
      'appel à conférences ouvert en Suisse',
      'call for paper aperto in Austria',
      'conferences with an open CFP',
      'Vorträge einreichen: KI-Konferenzen',
    ]) {
      const u = understand(q);
      expect(u.cfp, q).toBe(true);
      expect(u.terms, q).toEqual([]);
    }
    expect(understand('appel à conférences ouvert').kinds).toEqual([]);
    for (const [q, language] of [
      ['KI-Konferenz in Berlin, am liebsten auf Englisch', 'en'],
      ['AI conference in Berlin, ideally in English', 'en'],
      ['meetup Kubernetes à Berne, de préférence en allemand', 'de'],
      ['conferenze a Berlino, preferibilmente in inglese', 'en'],
      ['Workshops, gerne auf Deutsch', 'de'],
      ['événements IA en français', 'fr'],
    ] as const) {
      const u = understand(q);
      expect(u.language, q).toBe(language);
      expect(u.terms, q).toEqual([]);
    }
    expect(restated('KI-Konferenz in Berlin, am liebsten auf Englisch')).toBe(
      'AI & ML conferences in or near Berlin, those held in English first',
    );
    // "Deutschland" is a country, not the language.
    expect(understand('Konferenzen in Deutschland').language).toBeUndefined();
  });

  it('restates words beside constraints as ordering, and words alone as what is searched', () => {
    expect(restated('Kubernetes meetup Zürich with pizza')).toBe(
      'Kubernetes meetups in or near Zürich, those mentioning “pizza” first',
    );
    expect(restated('Zephyr RTOS')).toBe('Events in Switzerland, matching “Zephyr” or “RTOS”');
  });

  it('reads a year as a window, in four languages, and a city by its local name, never as words', () => {
    for (const q of ['security conference Germany 2026', 'Security-Konferenzen im Jahr 2026', 'conférences en 2026']) {
      const u = understand(q);
      expect(u.window?.label, q).toBe('in 2026');
      expect(u.terms, q).toEqual([]);
    }
    expect(restated('security conference Germany 2026')).toBe('Security conferences in Germany, in 2026');
    expect(understand('KI Meetup in Züri').place?.place.name).toBe('Zürich');
    expect(understand('DevOps in Bärn').place?.place.name).toBe('Bern');
    expect(understand('IoT Meetup Winti').place?.place.name).toBe('Winterthur');
    expect(understand('Veranstaltungen in Sanggale').terms).toEqual([]);
    expect(restated('KI Meetup in Züri')).toBe('AI & ML meetups in or near Zürich');
  });
});
