import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyAudience, classifySeniority, classifyTopics } from '../src/catalogue/classify.js';
import {
  CONFS_TECH_TOPIC_MAP,
  EVENT_KIND_TERMS,
  foldText,
  type LexiconHit,
  type LexiconKind,
  matchLexicon,
  remainderAfter,
  TOPIC_TERMS,
  tokenize,
} from '../src/catalogue/lexicon.js';
import {
  technologiesNamed,
  technologyAndParts,
  technologyFinder,
  unknownTechnologyTerms,
  widerTechnologies,
} from '../src/catalogue/lexicon-technologies.js';
import {
  FORMATS,
  isSeniority,
  isTopic,
  SENIORITIES,
  TOPIC_SLUGS,
  TOPICS,
  type TopicSlug,
  topicLabel,
} from '../src/catalogue/taxonomy.js';

const values = (text: string, kind: LexiconKind): string[] => [
  ...new Set(matchLexicon(text).flatMap((h) => (h.kind === kind ? [h.value] : []))),
];
const surface = (text: string, h: LexiconHit) => text.slice(h.start, h.start + h.length);

describe('taxonomy', () => {
  it('has a clean set of 20–26 unique topic slugs with labels', () => {
    expect(TOPICS.length).toBeGreaterThanOrEqual(20);
    expect(TOPICS.length).toBeLessThanOrEqual(26);
    expect(new Set(TOPIC_SLUGS).size).toBe(TOPICS.length);
    for (const t of TOPICS) {
      expect(t.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(t.label.length).toBeGreaterThan(1);
      expect(t.description.length).toBeGreaterThan(10);
    }
    const required =
      'ai-ml robotics biotech data cloud-devops security web mobile blockchain fintech healthtech climate';
    const more = 'hardware-iot product design startups quantum gaming programming-languages general';
    for (const slug of `${required} ${more}`.split(' ')) expect(isTopic(slug), slug).toBe(true);
  });

  it('labels topics and validates seniorities and formats', () => {
    expect(topicLabel('ai-ml')).toBe('AI & ML');
    expect(isTopic('nope')).toBe(false);
    expect(isTopic(42)).toBe(false);
    expect(SENIORITIES).toEqual(['student', 'junior', 'mid', 'senior', 'executive']);
    expect(isSeniority('senior')).toBe(true);
    expect(isSeniority('guru')).toBe(false);
    expect(FORMATS).toEqual(['in_person', 'online', 'hybrid']);
  });

  it('has lexicon terms for every topic but general, and a valid confs.tech map', () => {
    for (const slug of TOPIC_SLUGS) if (slug !== 'general') expect(TOPIC_TERMS[slug].length, slug).toBeGreaterThan(0);
    for (const slugs of Object.values(CONFS_TECH_TOPIC_MAP)) for (const s of slugs) expect(isTopic(s)).toBe(true);
    expect(Object.keys(EVENT_KIND_TERMS).sort()).toEqual([
      'conference',
      'hackathon',
      'meetup',
      'networking',
      'talk',
      'workshop',
    ]);
  });
});

describe('folding and tokenizing', () => {
  it('folds accents, case, ß and ligatures', () => {
    expect(foldText('Zürich Genève Straße ÆØ Œuvre')).toBe('zurich geneve strasse aeo oeuvre');
  });

  it('tokenizes with original offsets and tech spellings', () => {
    const text = 'Grüezi C++, C#, .NET & Node.js';
    const toks = tokenize(text);
    expect(toks.map((t) => t.text)).toEqual(['gruezi', 'c++', 'c#', 'dotnet', 'node', 'js']);
    expect(toks.map((t) => text.slice(t.start, t.start + t.length))).toEqual([
      'Grüezi',
      'C++',
      'C#',
      '.NET',
      'Node',
      'js',
    ]);
  });
});

describe('matchLexicon: topics', () => {
  const cases: [TopicSlug, string[]][] = [
    [
      'ai-ml',
      [
        'KI Meetup',
        'GenAI',
        'Gen-AI Stammtisch',
        'LLM',
        'LLMs in production',
        'IA générative',
        'conférence IA à Genève',
        "Introduction à l'intelligence artificielle",
        'maschinelles Lernen',
        'machine-learning',
        'Machine Learning',
        'A.I. for good',
        'intelligenza artificiale',
        'apprentissage automatique',
      ],
    ],
    ['cloud-devops', ['Kubernetes Community Days', 'k8s and platform engineering', 'CI/CD pipelines']],
    [
      'programming-languages',
      [
        'GopherCon EU',
        'Golang Zürich',
        'Go Meetup Bern',
        'Go',
        'Rust, Go and Java',
        'C++ User Group',
        '.NET Day',
        'PyCon DE',
        'BASTA! Spring',
        'W-JAX München',
      ],
    ],
    ['web', ['ZurichJS', 'Vue.js Vienna', 'Frontend-Entwicklung']],
    ['mobile', ['React Native', 'iOS & Android devs']],
    ['security', ['IT-Sicherheit', 'cybersécurité', 'OWASP Stammtisch', 'Sicherheitskonferenz']],
    ['data', ['Datenbanken', 'Big-Data', 'données', 'SQL']],
    ['blockchain', ['Web3 & Ethereum']],
    ['fintech', ['Zahlungsverkehr', 'insurtech', 'paiements']],
    ['healthtech', ['santé numérique', 'Gesundheit', 'medtech']],
    ['climate', ['Nachhaltigkeit', 'Klimaschutz', 'climate tech', 'énergie']],
    ['hardware-iot', ['Internet der Dinge']],
    ['robotics', ['Robotik', 'robotique', 'Drohnen']],
    ['quantum', ['informatique quantique', 'Quantencomputing', 'quantum']],
    ['gaming', ['jeux vidéo', 'Spieleentwicklung']],
    ['product', ['Produktmanagement']],
    ['design', ['UX/UI', 'Barrierefreiheit']],
    ['startups', ['Startups', 'Startup-Szene Zürich']],
    ['open-source', ['Open-Source']],
    ['testing', ['Testautomatisierung']],
    ['architecture', ['Softwarearchitektur']],
    ['career', ['Women in Tech']],
    ['leadership', ['Engineering Leadership']],
  ];
  it.each(cases.flatMap(([slug, texts]) => texts.map((text) => [text, slug] as const)))('%s → %s', (text, slug) => {
    expect(values(text, 'topic')).toContain(slug);
  });

  const negatives: [string, TopicSlug][] = [
    ["Let's go to Berlin", 'programming-languages'],
    ['Go and see the lake', 'programming-languages'],
    ["Let's go get coffee", 'programming-languages'],
    ['Spring Festival', 'programming-languages'],
    ['7 PM meetup', 'product'],
    ['point de vue', 'web'],
    ['free software', 'general'],
  ];
  it.each(negatives)('%s ↛ %s', (text, slug) => {
    expect(values(text, 'topic')).not.toContain(slug);
  });

  it('prefers the longest term', () => {
    expect(values('free software', 'topic')).toEqual(['open-source']);
    expect(values('free software', 'price')).toEqual([]);
    expect(values('virtual reality', 'format')).toEqual([]);
    expect(values('product management', 'topic')).toEqual(['product']);
    expect(values('hybrid cloud', 'topic')).toEqual(['cloud-devops']);
  });
});

describe('matchLexicon: audience, seniority, format, price, event kinds', () => {
  it.each(['AI meetups for founders', 'für Gründer', 'pour les fondateurs', 'Gründer*innen-Apéro', 'cofounders'])(
    '%s → founders',
    (text) => expect(values(text, 'audience')).toContain('founders'),
  );

  it.each([
    ['for students', 'student'],
    ['für Studierende', 'student'],
    ['étudiants', 'student'],
    ['studenti', 'student'],
    ['for beginners', 'junior'],
    ['Einsteiger', 'junior'],
    ['débutants', 'junior'],
    ['intermediate', 'mid'],
    ['Fortgeschrittene', 'senior'],
    ['experienced engineers', 'senior'],
    ['CTO roundtable', 'executive'],
    ['Führungskräfte', 'executive'],
    ['dirigeants', 'executive'],
    ['founders', 'executive'],
  ])('%s → seniority %s', (text, seniority) => expect(values(text, 'seniority')).toContain(seniority));

  it.each([
    ['online', 'online'],
    ['remote', 'online'],
    ['en ligne', 'online'],
    ['virtuell', 'online'],
    ['Webinar', 'online'],
    ['vor Ort', 'in_person'],
    ['in-person', 'in_person'],
    ['en présentiel', 'in_person'],
    ['IRL', 'in_person'],
    ['hybrid', 'hybrid'],
    ['hybride', 'hybrid'],
  ])('%s → format %s', (text, format) => expect(values(text, 'format')).toEqual([format]));

  it.each(['kostenlos', 'gratuit', 'free', 'gratis', 'umsonst', 'gratuito', 'no cost', 'Eintritt frei'])(
    '%s → free',
    (text) => expect(values(text, 'price')).toEqual(['free']),
  );
  it('knows paid and ignores "-free" compounds', () => {
    expect(values('kostenpflichtig', 'price')).toEqual(['paid']);
    expect(values('payant', 'price')).toEqual(['paid']);
    expect(values('gluten-free snacks', 'price')).toEqual([]);
  });

  it('handles inflections and keeps event words apart from topics', () => {
    expect(values('Startups', 'topic')).toEqual(['startups']);
    expect(values('meetups', 'eventKind')).toEqual(['meetup']);
    expect(values('Konferenzen', 'eventKind')).toEqual(['conference']);
    expect(values('conférences', 'eventKind')).toEqual(['conference']);
    expect(values('Hackathons und Workshops', 'eventKind')).toEqual(['hackathon', 'workshop']);
    expect(values('Stammtisch', 'eventKind')).toEqual(['meetup']);
    expect(values('meetup conference Konferenz workshop hackathon summit', 'topic')).toEqual([]);
  });

  it('reads a day of talks and Italian plurals as kinds of event', () => {
    for (const text of ['Postgres Tag', 'Rust Day', 'IT-Tage', 'conferenze', 'congressi'])
      expect(values(text, 'eventKind'), text).toEqual(['conference']);
    expect(values('incontri', 'eventKind')).toEqual(['meetup']);
    expect(values('Robotics Summer School', 'eventKind')).toEqual(['workshop']);
  });
});

describe('matchLexicon: spans and remainder', () => {
  it('reports original offsets, case- and accent-insensitively', () => {
    const text = 'AI meetups in Zürich for founders next week';
    const hits = matchLexicon(text);
    expect(hits.map((h) => [h.kind, h.value, surface(text, h)])).toEqual([
      ['topic', 'ai-ml', 'AI'],
      ['eventKind', 'meetup', 'meetups'],
      ['audience', 'founders', 'founders'],
      ['seniority', 'executive', 'founders'],
    ]);
    expect(remainderAfter(text, hits)).toBe('in Zürich for next week');
  });

  it('never overlaps distinct spans', () => {
    const texts = [
      'KI Meetup Zürich nächste Woche, kostenlos und vor Ort',
      'Free machine-learning workshop for beginners in Genève (en ligne)',
      'Apéro für Gründerinnen und Investoren: Web3, Fintech & Open-Source-Software',
    ];
    for (const text of texts) {
      const spans = [...new Map(matchLexicon(text).map((h) => [h.start, h.start + h.length])).entries()];
      for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    }
  });

  it('removes matched spans and orphaned punctuation', () => {
    const text = 'KI-Meetup in Zürich nächste Woche (kostenlos)';
    expect(remainderAfter(text, matchLexicon(text))).toBe('in Zürich nächste Woche');
    const fr = "conférence sur l'IA à Genève";
    expect(remainderAfter(fr, matchLexicon(fr))).toBe('sur à Genève');
  });

  it('runs in microseconds per query', () => {
    const q = 'AI meetups in Zürich for founders next week, kostenlos';
    matchLexicon(q);
    const start = performance.now();
    for (let i = 0; i < 1000; i++) matchLexicon(q);
    expect(performance.now() - start).toBeLessThan(250); // ~10 µs per call locally; generous for CI
  });
});

describe('technologies', () => {
  it('are named by terms the lexicon knows as topic terms', () => {
    expect(unknownTechnologyTerms()).toEqual([]);
  });

  it('know the names of a technology, its parts and what it is part of', () => {
    for (const term of ['Java', 'JCON', 'JavaLand', 'W-JAX', 'JUG'])
      expect(technologiesNamed(term), term).toEqual(['java']);
    expect(technologiesNamed('BASTA')).toEqual(['dotnet']);
    expect(technologiesNamed('PGConf')).toEqual(['postgres']);
    expect([...technologyAndParts('java')]).toEqual(expect.arrayContaining(['java', 'spring', 'quarkus']));
    expect([...technologyAndParts('java')]).not.toContain('kotlin');
    expect([...widerTechnologies('svelte')]).toEqual(expect.arrayContaining(['javascript', 'web']));
    expect([...widerTechnologies('kotlin')]).toEqual(expect.arrayContaining(['jvm', 'android', 'mobile']));
    expect([...widerTechnologies('kotlin')]).not.toContain('java');
  });

  it('tell a field named as a whole from a term of its own', () => {
    expect(technologiesNamed('DevOps')).toEqual(['cloud-devops']);
    // A series about the whole field: evidence of the field in a title, a name of its own when typed.
    expect(technologiesNamed('DevOpsDays')).toEqual(['cloud-devops', 'term:devopsdays']);
    expect(technologiesNamed('Bitcoin')).toEqual(['term:bitcoin']);
  });

  it('find a technology in free text as a whole word, not inside a longer one', () => {
    const finder = technologyFinder(technologyAndParts('java'))!;
    expect(finder.any.test(foldText('Virtual Threads mit Java 21 in einer Spring-Boot-Anwendung'))).toBe(true);
    expect(finder.any.test(foldText('Modern JavaScript and TypeScript'))).toBe(false);
    expect(technologyFinder(['dotnet'])!.any.test(foldText('What is new in .NET 9 and C# 13'))).toBe(true);
  });
});

describe('classify', () => {
  it('weighs the title over the description and falls back to general', () => {
    expect(classifyTopics('KubeCon + CloudNativeCon Europe')).toEqual(['cloud-devops']);
    expect(classifyTopics('Python Meetup', 'We talk about data, data pipelines and data science.')[0]).toBe(
      'programming-languages',
    );
    expect(classifyTopics('Python Meetup', 'with pizza')).toEqual(['programming-languages']);
    expect(classifyTopics('Voxxed Days Ticino')).toEqual(['general']);
    expect(classifyTopics('DecompileD', undefined, ['general'])).toEqual(['general']);
    expect(classifyTopics('JavaScript Days', undefined, ['general'])).toEqual(['web']);
    expect(classifyTopics('Tech Night', 'A night about AI. More AI and machine learning.')).toEqual(['ai-ml']);
    expect(classifyTopics('Founders & Investors Apéro')).toEqual(['startups']);
    expect(classifyTopics('Summit', undefined, ['Machine Learning'])).toEqual(['ai-ml']);
  });

  it('classifies seniority and audience, empty without signal', () => {
    expect(classifySeniority('Rust for beginners')).toEqual(['junior']);
    expect(classifySeniority('CTO Roundtable', 'For CTOs and VPs of engineering.')).toEqual(['executive']);
    expect(classifySeniority('Hackathon für Studierende')).toEqual(['student']);
    expect(classifySeniority('JavaScript Days')).toEqual([]);
    expect(classifySeniority('JS Days', 'Our expert speakers cover everything.')).toEqual([]);
    expect(classifyAudience('Pitch night for founders')).toEqual(['founders']);
    expect(classifyAudience('JavaScript Days')).toEqual([]);
  });
});

const SEED_FILE = fileURLToPath(new URL('../seed/confs-tech/dach-2025-2027.json', import.meta.url));
interface Seed {
  name: string;
  confsTechTopics: string[];
}

describe('classify: confs.tech seed events', () => {
  const seeds = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as Seed[];

  it('maps every confs.tech topic used in the seed', () => {
    for (const e of seeds) for (const t of e.confsTechTopics) expect(CONFS_TECH_TOPIC_MAP, t).toHaveProperty(t);
  });

  it('gives every seed event at least one taxonomy topic', () => {
    expect(seeds).toHaveLength(196);
    for (const e of seeds) {
      const topics = classifyTopics(e.name, undefined, e.confsTechTopics);
      expect(topics.length, e.name).toBeGreaterThan(0);
      for (const t of topics) expect(isTopic(t), `${e.name}: ${t}`).toBe(true);
    }
  });

  const byName = (name: string) => {
    const e = seeds.find((s) => s.name === name);
    if (!e) throw new Error(`seed event ${name} missing`);
    return classifyTopics(e.name, undefined, e.confsTechTopics);
  };
  it.each([
    ['PyCon DE & PyData', 'programming-languages'],
    ['Devopsdays Zurich', 'cloud-devops'],
    ['ContainerDays Conference', 'cloud-devops'],
    ['MLCon Berlin', 'ai-ml'],
    ['Rise of AI', 'ai-ml'],
    ['betterCode() GenAI Summit', 'ai-ml'],
    ['KI Bootcamp', 'ai-ml'],
    ['Oxidize - the applied Rust conference', 'programming-languages'],
    ['OWASP Global AppSec EU', 'security'],
    ['Unhacked International CyberSecurity', 'security'],
    ['ZurichJS Conf', 'web'],
    ['Swiss PGDay', 'data'],
    ['Fluttercon Europe', 'mobile'],
    ['Product Owner Days', 'product'],
    ['Digital Design & UX (DDUX)', 'design'],
    ['Software Quality Days', 'testing'],
    ['FOSS Backstage', 'open-source'],
    ['bitcoin++ payments edition', 'blockchain'],
    ['LeadDev Berlin', 'leadership'],
    ['Women in tech', 'career'],
  ])('%s → %s first', (name, slug) => {
    expect(byName(name)[0]).toBe(slug);
  });
});
