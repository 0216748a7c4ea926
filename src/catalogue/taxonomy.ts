/**
 * The public taxonomy of the catalogue: topic slugs, seniority levels, formats, audiences, prices and event kinds.
 * Slugs are stable API (they appear in URLs, JSON, iCal categories and MCP tool arguments); labels are for humans,
 * e.g. match reasons such as "Topic: AI & ML". See docs/taxonomy.md for what belongs where.
 */

export interface TopicInfo {
  slug: string;
  label: string;
  description: string;
}

export const TOPICS = [
  {
    slug: 'ai-ml',
    label: 'AI & ML',
    description: 'Artificial intelligence, machine learning, LLMs, generative AI, NLP, vision.',
  },
  {
    slug: 'data',
    label: 'Data',
    description: 'Data engineering, analytics, data science, databases, SQL, BI, streaming, statistics.',
  },
  {
    slug: 'cloud-devops',
    label: 'Cloud & DevOps',
    description:
      'Cloud, Kubernetes, containers, DevOps, SRE, platform engineering, CI/CD, observability, infrastructure.',
  },
  {
    slug: 'security',
    label: 'Security',
    description: 'Cybersecurity, AppSec, pentesting, CTFs, cryptography, privacy, identity and access management.',
  },
  {
    slug: 'web',
    label: 'Web',
    description: 'Web and frontend development: JavaScript, TypeScript, React, Vue, Angular, CSS, Node.js, CMSs.',
  },
  { slug: 'mobile', label: 'Mobile', description: 'iOS, Android, Swift, Kotlin, Flutter, React Native, mobile apps.' },
  {
    slug: 'programming-languages',
    label: 'Programming languages',
    description:
      'Language communities and ecosystems: Python, Rust, Go, Java, .NET, C++, PHP, Ruby, functional languages.',
  },
  {
    slug: 'architecture',
    label: 'Software architecture & APIs',
    description:
      'Software architecture and design, APIs, microservices, backend, DDD, distributed systems, clean code.',
  },
  {
    slug: 'testing',
    label: 'Testing & QA',
    description: 'Software testing, test automation, quality assurance, TDD/BDD, software quality.',
  },
  {
    slug: 'open-source',
    label: 'Open source',
    description: 'Open source software and communities, Linux, InnerSource, open source compliance.',
  },
  {
    slug: 'blockchain',
    label: 'Blockchain & crypto',
    description: 'Blockchain, cryptocurrencies, web3, Ethereum, Bitcoin, DeFi, smart contracts.',
  },
  {
    slug: 'fintech',
    label: 'Fintech',
    description: 'Financial technology: banking, payments, insurtech, regtech, wealth management, trading.',
  },
  {
    slug: 'healthtech',
    label: 'Health tech',
    description: 'Digital health, medtech, healthcare IT, medical devices and software.',
  },
  {
    slug: 'biotech',
    label: 'Biotech & life sciences',
    description: 'Biotechnology, life sciences, bioinformatics, genomics, pharma research.',
  },
  {
    slug: 'climate',
    label: 'Climate & sustainability',
    description: 'Climate tech, cleantech, energy, sustainability, green software, circular economy, e-mobility.',
  },
  {
    slug: 'hardware-iot',
    label: 'Hardware, IoT & embedded',
    description: 'IoT, embedded systems, electronics, maker culture, FPGA, semiconductors, Industry 4.0.',
  },
  {
    slug: 'robotics',
    label: 'Robotics',
    description: 'Robotics, drones, autonomous systems and vehicles, mechatronics, industrial automation.',
  },
  { slug: 'quantum', label: 'Quantum', description: 'Quantum computing, quantum technology and post-quantum topics.' },
  {
    slug: 'gaming',
    label: 'Gaming & XR',
    description: 'Game development, video games, esports, AR/VR/XR and the metaverse.',
  },
  {
    slug: 'product',
    label: 'Product & agile',
    description: 'Product management, product ownership, discovery, agile methods (Scrum, Kanban), project management.',
  },
  {
    slug: 'design',
    label: 'Design & UX',
    description: 'UX/UI, user research, interaction and service design, design systems, accessibility.',
  },
  {
    slug: 'startups',
    label: 'Startups',
    description: 'Startups and entrepreneurship, venture capital, pitching, accelerators, founding a company.',
  },
  {
    slug: 'leadership',
    label: 'Engineering leadership',
    description: 'Engineering management, tech leadership, CTO topics, team organisation.',
  },
  {
    slug: 'career',
    label: 'Careers & diversity',
    description: 'Careers, job fairs, hiring, mentoring, upskilling, women in tech, diversity and inclusion.',
  },
  {
    slug: 'general',
    label: 'General tech',
    description: 'General developer and tech conferences with no dominant topic (only used when nothing else applies).',
  },
] as const satisfies readonly TopicInfo[];

export type TopicSlug = (typeof TOPICS)[number]['slug'];

export const TOPIC_SLUGS: readonly TopicSlug[] = TOPICS.map((t) => t.slug);

const TOPIC_BY_SLUG: ReadonlyMap<string, TopicInfo> = new Map(TOPICS.map((t) => [t.slug, t]));

export function isTopic(value: unknown): value is TopicSlug {
  return typeof value === 'string' && TOPIC_BY_SLUG.has(value);
}

/** Human label of a topic, e.g. `topicLabel('ai-ml') === 'AI & ML'`. */
export function topicLabel(slug: TopicSlug): string {
  return TOPIC_BY_SLUG.get(slug)?.label ?? slug;
}

export const SENIORITIES = ['student', 'junior', 'mid', 'senior', 'executive'] as const;
export type Seniority = (typeof SENIORITIES)[number];
export const SENIORITY_LABELS: Record<Seniority, string> = {
  student: 'Students',
  junior: 'Juniors & beginners',
  mid: 'Mid-level',
  senior: 'Seniors & experts',
  executive: 'Executives & leaders',
};
export function isSeniority(value: unknown): value is Seniority {
  return typeof value === 'string' && (SENIORITIES as readonly string[]).includes(value);
}

export const FORMATS = ['in_person', 'online', 'hybrid'] as const;
export type Format = (typeof FORMATS)[number];
export const FORMAT_LABELS: Record<Format, string> = { in_person: 'In person', online: 'Online', hybrid: 'Hybrid' };
export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
}

/** Special audiences a query can ask for ("for founders"); orthogonal to seniority. */
export const AUDIENCES = ['founders', 'investors'] as const;
export type Audience = (typeof AUDIENCES)[number];
export function isAudience(value: unknown): value is Audience {
  return typeof value === 'string' && (AUDIENCES as readonly string[]).includes(value);
}

export const PRICES = ['free', 'paid'] as const;
export type Price = (typeof PRICES)[number];

/** Kinds of event; words for these are full-text words in a search, not topics. */
export const EVENT_KINDS = ['meetup', 'conference', 'workshop', 'hackathon', 'talk', 'networking'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const EVENT_KIND_LABELS: Record<EventKind, string> = {
  meetup: 'Meetup',
  conference: 'Conference',
  workshop: 'Workshop / training',
  hackathon: 'Hackathon',
  talk: 'Talk / webinar',
  networking: 'Networking',
};
export function isEventKind(value: unknown): value is EventKind {
  return typeof value === 'string' && (EVENT_KINDS as readonly string[]).includes(value);
}
