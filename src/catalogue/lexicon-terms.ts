/**
 * Surface terms (en/de/fr/it) of the lexicon, comma-separated groups of base forms: the matcher (lexicon.ts) folds
 * case, accents and ä→ae, treats hyphens and spaces alike and adds joined forms and simple inflections.
 * Markers: `~` only next to a context word or a term of the same meaning ("Go meetup", not "Let's go to Berlin");
 * `^` not as the tail of a hyphenated word ("gluten-free" is no price). Dotted acronyms (K.I.) match only with dots.
 */
import type { Audience, EventKind, Format, Price, Seniority, TopicSlug } from './taxonomy.js';

type Terms = readonly string[];

export const TOPIC_TERMS: Record<Exclude<TopicSlug, 'general'>, Terms> = {
  'ai-ml': [
    'AI, A.I., KI, K.I., IA, I.A., artificial intelligence, künstliche Intelligenz, intelligence artificielle',
    'intelligenza artificiale, machine learning, maschinelles Lernen, apprentissage automatique, apprendimento automatico',
    'ML, MLOps, MLCon, deep learning, LLM, large language model, Sprachmodell, foundation model, GenAI, generative AI',
    'gen AI, generative KI, IA générative, IA generativa, GPT, ChatGPT, OpenAI, NLP, natural language processing',
    'computer vision, neural network, neuronales Netz, neuronale Netze, réseau de neurones, réseaux de neurones',
    'AI agent, agentic, prompt engineering, retrieval augmented generation, PyTorch, TensorFlow, Hugging Face, vibe coding',
    'Minds Mastering Machines',
  ],
  data: [
    'data, Daten, données, dati, big data, data science, data scientist, data engineering, data engineer, data analytics',
    'analytics, Datenanalyse, analyse de données, Datenwissenschaft, business intelligence, ~BI, Power BI, Tableau',
    'data warehouse, data lake, lakehouse, data mesh, data management, data visualization, Datenvisualisierung',
    'database, Datenbank, base de données, bases de données, jeu de données, dataset, SQL, NoSQL, PostgreSQL, Postgres',
    'PGConf, PGDay, MySQL, MongoDB, Elasticsearch, Kafka, Apache Spark, Databricks, Snowflake, Microsoft Fabric, PyData',
    'statistics, Statistik, statistiques, statistica, open data, ~R, rstats, MariaDB, data2day',
  ],
  'cloud-devops': [
    'cloud, cloud native, cloud computing, hybrid cloud, Kubernetes, k8s, KubeCon, CloudNativeCon, KCD, DevOps',
    'DevOpsDays, DevOpsCon, DevSecOps, SRE, SREday, site reliability engineering, platform engineering, serverless',
    'Docker, container, ContainerDays, ContainerConf, AWS, Amazon Web Services, Azure, GCP, Google Cloud, OpenStack',
    'Terraform, OpenTofu, Ansible, infrastructure as code, IaC, GitOps, CI/CD, continuous delivery, continuous integration',
    'continuous deployment, observability, monitoring, Prometheus, Grafana, OpenTelemetry, FinOps, edge computing',
    'infrastructure, Infrastruktur, sysadmin, system administration, Systemadministration, storage, server, serveur',
    'data center, Rechenzentrum, computer networks, network engineering, Netzwerktechnik',
  ],
  security: [
    'security, cybersecurity, cyber security, cyber, infosec, information security, IT security, IT-Sicherheit',
    'Sicherheit, Cybersicherheit, Informationssicherheit, sécurité, cybersécurité, sécurité informatique, sicurezza',
    'sicurezza informatica, cybersicurezza, pentest, pentesting, penetration testing, Penetrationstest, CTF',
    'capture the flag, OWASP, AppSec, application security, DevSecOps, devSec, hacking, ethical hacking, bug bounty',
    'red team, blue team, threat intelligence, malware, ransomware, cryptography, Kryptographie, Kryptografie',
    'cryptographie, zero trust, privacy, Datenschutz, protection des données, GDPR, DSGVO, RGPD, digital identity',
    'identity management, identity and access management, IAM, confidential computing, GRC, risk management, Nullcon',
    'RuhrSec',
  ],
  web: [
    'web, web development, web developer, Webentwicklung, Webentwickler, développement web, sviluppo web, frontend',
    'front-end, Frontend-Entwicklung, fullstack, full-stack, JavaScript, JS, JSConf, TypeScript, ECMAScript, Node.js',
    'Deno, React, Next.js, Angular, AngularJS, ~Vue, Vue.js, Nuxt, Svelte, SvelteKit, jQuery, HTML, CSS, Sass, Tailwind',
    'WebAssembly, Wasm, PWA, progressive web app, web components, web app, web performance, Webinale',
    'WordPress, Drupal, Joomla, TYPO3, Shopware, Magento, Symfony, Laravel, Django, Ruby on Rails',
  ],
  mobile: [
    'mobile, mobile development, mobile app, Mobile-Entwicklung, App-Entwicklung, app development, développement mobile',
    'sviluppo mobile, app, smartphone, iOS, Android, Swift, SwiftUI, swiftcon, Kotlin, KotlinConf, Kotlin Multiplatform',
    'Jetpack Compose, Flutter, Fluttercon, Dart, React Native, droidcon, Xamarin, MAUI, CocoaHeads',
  ],
  'programming-languages': [
    'programming language, Programmiersprache, langage de programmation, linguaggio di programmazione, compiler',
    'Compilerbau, functional programming, funktionale Programmierung, programmation fonctionnelle, Python, PyCon',
    'PyData, Pythonista, Rust, RustConf, Rustacean, ~Go, Golang, GopherCon, Gopher, Java, JVM, Jakarta EE, Spring Boot',
    'Spring Framework, Quarkus, JavaLand, JCON, Scala, Kotlin, KotlinConf, Swift, Dart, Clojure, Groovy, Elixir, Erlang',
    'Haskell, OCaml, F#, C#, C++, CppCon, .NET, dotnet, ASP.NET, Delphi, PHP, Ruby, Ruby on Rails, Perl, Lua, Zig',
    'JuliaCon, COBOL, Fortran, Lisp, Symfony, Laravel, Django, JUG',
    // Series named after their technology: BASTA! (.NET), JAX and W-JAX (Java), EKON (Delphi), emBO++ (embedded C++).
    'BASTA, JAX, W-JAX, SymfonyLive, EuroPython, DjangoCon, RustFest, Meeting C++, emBO++, EKON, SpringOne, Blazor',
    'ElixirConf, Ktor',
  ],
  architecture: [
    'software architecture, Softwarearchitektur, architecture logicielle, architettura software, architecture',
    'Architektur, architettura, software design, microservices, domain-driven design, DDD, event-driven, event sourcing',
    'CQRS, clean architecture, clean code, system design, distributed systems, verteilte Systeme, systèmes distribués',
    'API, API design, APIdays, REST API, RESTful, GraphQL, gRPC, OpenAPI, backend, back-end, Backend-Entwicklung',
    'software craftsmanship',
  ],
  testing: [
    'testing, software testing, Softwaretest, test automation, Testautomatisierung, automatisation des tests, QA, tester',
    'quality assurance, Qualitätssicherung, assurance qualité, software quality, Softwarequalität, qualité logicielle',
    'TDD, BDD, test-driven development, unit testing, end-to-end testing, E2E, Selenium, Playwright, Cypress',
  ],
  'open-source': [
    'open source, FOSS, OSS, free software, freie Software, logiciel libre, logiciels libres, software libero, Linux',
    'GNU, InnerSource, inner source, OpenChain, FOSDEM',
  ],
  blockchain: [
    'blockchain, crypto, cryptocurrency, Krypto, Kryptowährung, cryptomonnaie, criptovaluta, criptovalute, web3, Web 3',
    'Web 3.0, Ethereum, Bitcoin, Solana, Polkadot, DeFi, decentralized finance, NFT, smart contract, Solidity, DLT',
    'distributed ledger, Crypto Valley, stablecoin, digital assets',
  ],
  fintech: [
    'fintech, financial technology, finance, Finanzen, Finanzwesen, banking, Banken, Bankwesen, banque, banca',
    'open banking, neobank, payments, payment, Zahlungsverkehr, paiement, pagamenti, insurtech, insurance, Versicherung',
    'assurance, wealthtech, regtech, trading, financial services, Finanzdienstleistungen, services financiers',
  ],
  healthtech: [
    'healthtech, health tech, digital health, health, healthcare, Gesundheit, Gesundheitswesen, santé, santé numérique',
    'e-santé, salute, sanità, medtech, medical technology, Medizintechnik, medical, Medizin, médical, médecine',
    'medicina, eHealth, mHealth, clinical, klinisch, hospital, Spital, Krankenhaus, hôpital, mental health',
  ],
  biotech: [
    'biotech, biotechnology, Biotechnologie, biotecnologie, life sciences, life science, Lebenswissenschaften',
    'sciences de la vie, scienze della vita, bioinformatics, Bioinformatik, bioinformatique, bioinformatica',
    'computational biology, genomics, Genomik, génomique, synthetic biology, synthetische Biologie, biology, Biologie',
    'pharma, pharmaceutical, drug discovery',
  ],
  climate: [
    'climate, climate tech, Klima, Klimaschutz, Klimawandel, climat, clima, cleantech, greentech, green tech',
    'sustainability, sustainable, Nachhaltigkeit, nachhaltig, durabilité, développement durable, durable, sostenibilità',
    'sostenibile, energy, Energie, énergie, energia, Energiewende, renewable energy, erneuerbare Energien, solar',
    'photovoltaics, carbon, CO2, net zero, decarbonization, Dekarbonisierung, circular economy, Kreislaufwirtschaft',
    'économie circulaire, green IT, green software, ESG, Umwelt, e-mobility, Elektromobilität',
    'agritech, agtech',
  ],
  'hardware-iot': [
    'IoT, Internet of Things, Internet der Dinge, internet des objets, internet delle cose, IIoT, Industrie 4.0',
    'Industry 4.0, embedded, embedded systems, eingebettete Systeme, systèmes embarqués, hardware, electronics',
    'Elektronik, électronique, elettronica, maker, Maker Faire, makerspace, FPGA, Arduino, Raspberry Pi, microcontroller',
    'Mikrocontroller, firmware, semiconductor, Halbleiter, semi-conducteurs, chip design, RISC-V, sensors, Sensoren',
    'capteurs, PCB, 3D printing, 3D-Druck, impression 3D, automotive, digital twin, emBO++',
  ],
  robotics: [
    'robotics, robot, Robotik, Roboter, robotique, robotica, cobot, drone, Drohne, droni, UAV, autonomous systems',
    'autonome Systeme, systèmes autonomes, autonomous driving, autonomes Fahren, conduite autonome, guida autonoma',
    'self-driving, autonomous vehicle, autonomous mobility, ROS, ROS 2, Robot Operating System, mechatronics',
    'Mechatronik, industrial automation, Automatisierungstechnik',
  ],
  quantum: [
    'quantum, quantum computing, quantum technology, Quanten, Quantencomputing, Quantencomputer, Quantentechnologie',
    'quantique, informatique quantique, quantistico, quantistica, calcolo quantistico, qubit, Qiskit, post-quantum',
  ],
  gaming: [
    'gaming, game, game dev, game development, game developer, game design, Spieleentwicklung, Spieleentwickler, Spiele',
    'Videospiele, Computerspiele, jeux vidéo, jeu vidéo, jeux, videogiochi, videogioco, esports, e-sports, Unity',
    'Unreal Engine, Godot, game jam, Gamescom, AR/VR, VR, XR, virtual reality, augmented reality, mixed reality',
    'réalité virtuelle, réalité augmentée, virtuelle Realität, erweiterte Realität, metaverse',
  ],
  product: [
    'product, product management, product manager, product owner, product discovery, product-led, Produkt',
    'Produktmanagement, Produktmanager, gestion de produit, chef de produit, ~PM, ProductTank, Mind the Product',
    'roadmap, OKR, agile, Agilität, agilité, Scrum, Scrum Master, Kanban, project management, Projektmanagement',
    'gestion de projet',
  ],
  design: [
    'design, UX, UI, UX/UI, UI/UX, user experience, user interface, user research, UX research, usability',
    'Benutzerfreundlichkeit, expérience utilisateur, interface utilisateur, interaction design, Interaktionsdesign',
    'service design, design thinking, design system, product design, visual design, graphic design, Grafikdesign',
    'Webdesign, web design, Figma, typography, Typografie, designer, accessibility, a11y, Barrierefreiheit, barrierefrei',
    'accessibilité, accessibilità, inclusive design, uxcon, SmashingConf, DDUX',
  ],
  startups: [
    'startup, start-up, Startup-Szene, Gründerszene, scale-up, scaleup, entrepreneurship, Unternehmertum',
    "entrepreneuriat, imprenditorialità, Existenzgründung, Unternehmensgründung, Gründung, création d'entreprise",
    'venture capital, Risikokapital, capital-risque, pitch, pitching, pitch night, demo day, accelerator, incubator',
    'Inkubator, incubateur, incubatore, fundraising, seed funding, Venturelab, Startup Weekend',
  ],
  leadership: [
    'leadership, engineering leadership, tech leadership, engineering management, engineering manager, tech lead',
    'team lead, team leadership, Teamleitung, Führung, LeadDev, management, IT management, team topologies, CTO',
    'VP Engineering, VP of Engineering, Head of Engineering',
  ],
  career: [
    'career, Karriere, carrière, carriera, job, job fair, career fair, career day, Jobmesse, Karrieremesse, Karrieretag',
    'forum emploi, hiring, recruiting',
    'recruitment, recrutement, reclutamento, women in tech, women, Frauen, femmes, girls, diversity, Diversität',
    'diversité, diversità, inclusion, Inklusion, mentoring, mentorat, mentorship, upskilling, reskilling',
    'Weiterbildung, soft skills, LGBTQ, queer',
  ],
};

/**
 * The words naming a topic's field itself and its practitioners ("CTO", "tester"), so "AI" is answered by a title
 * saying "KI"; more specific words ("Python") ask for their technology (lexicon-technologies.ts), the field weakly.
 */
export const TOPIC_NAMES: Record<Exclude<TopicSlug, 'general'>, string> = {
  'ai-ml':
    'AI, A.I., KI, K.I., IA, I.A., artificial intelligence, künstliche Intelligenz, intelligence artificielle, ' +
    'intelligenza artificiale, machine learning, maschinelles Lernen, apprentissage automatique, ML',
  data: 'data, Daten, données, dati',
  'cloud-devops': 'cloud, cloud computing, DevOps',
  security:
    'security, cybersecurity, cyber security, cyber, infosec, information security, IT security, IT-Sicherheit, ' +
    'Sicherheit, Cybersicherheit, Informationssicherheit, sécurité, cybersécurité, sécurité informatique, sicurezza, ' +
    'sicurezza informatica, cybersicurezza',
  web: 'web, web development, Webentwicklung, développement web, sviluppo web, web developer, Webentwickler',
  mobile: 'mobile, mobile development, Mobile-Entwicklung, App-Entwicklung, développement mobile, sviluppo mobile',
  'programming-languages':
    'programming language, Programmiersprache, langage de programmation, linguaggio di programmazione',
  architecture:
    'architecture, software architecture, Architektur, Softwarearchitektur, architecture logicielle, architettura',
  testing:
    'testing, software testing, Softwaretest, QA, quality assurance, Qualitätssicherung, assurance qualité, tester',
  'open-source': 'open source, FOSS, OSS, free software, freie Software, logiciel libre, software libero',
  blockchain: 'blockchain, crypto, Krypto, web3',
  fintech: 'fintech, financial technology',
  healthtech: 'healthtech, health tech, digital health, santé numérique, e-santé, eHealth',
  biotech: 'biotech, biotechnology, Biotechnologie, life sciences, Lebenswissenschaften, sciences de la vie',
  climate: 'climate, climate tech, Klima, climat, clima, sustainability, Nachhaltigkeit, durabilité, sostenibilità',
  'hardware-iot': 'IoT, Internet of Things, Internet der Dinge, internet des objets, internet delle cose, hardware',
  robotics: 'robotics, Robotik, robotique, robotica',
  quantum:
    'quantum, quantum computing, Quanten, Quantencomputing, quantique, informatique quantique, quantistico, ' +
    'calcolo quantistico',
  gaming:
    'gaming, game development, Spieleentwicklung, jeux vidéo, videogiochi, game dev, game developer, Spieleentwickler',
  product: 'product, product management, Produktmanagement, gestion de produit',
  design: 'design, UX, UI, UX/UI, UI/UX, user experience, designer',
  startups: 'startup, start-up, entrepreneurship, Unternehmertum, entrepreneuriat, imprenditorialità',
  leadership:
    'leadership, engineering leadership, tech leadership, engineering management, CTO, VP Engineering, ' +
    'VP of Engineering, Head of Engineering, engineering manager, tech lead, team lead',
  career: 'career, Karriere, carrière, carriera',
};

export const AUDIENCE_TERMS: Record<Audience, Terms> = {
  founders: [
    'founder, co-founder, Gründer, Gründerin, Mitgründer, Co-Gründer, fondateur, fondatrice, cofondateur, co-fondateur',
    'fondatore, fondatori, fondatrice, entrepreneur, Unternehmer, Unternehmerin, entrepreneuse, imprenditore',
    'imprenditori, solopreneur',
  ],
  investors: [
    'investor, Investoren, investisseur, investitore, investitori, angel investor, business angel, VC, VCs',
    'family office, limited partner',
  ],
};

export const SENIORITY_TERMS: Record<Seniority, Terms> = {
  student: [
    'student, Studierende, Studenten, étudiant, étudiante, studente, studenti, studentessa, university, Universität',
    'Uni, université, università, Hochschule, campus, PhD, doctoral, Doktorand, doctorant, apprentice, apprenticeship',
    'Lernende, Lehrling, apprenti, Schüler, pupil, high school',
  ],
  junior: [
    'junior, beginner, Anfänger, Einsteiger, Berufseinsteiger, Quereinsteiger, newcomer, Neueinsteiger, débutant',
    'débutante, principiante, principianti, entry level, introduction, intro, Einführung, Grundlagen, basics, 101',
    'getting started, first steps, erste Schritte, premiers pas, no experience',
  ],
  mid: ['mid-level, intermediate, Mittelstufe, intermédiaire, intermedio'],
  senior: [
    'senior, experienced, advanced, expert, Experten, Expertinnen, Fortgeschrittene, fortgeschritten, Profi, Profis',
    'deep dive, avancé, confirmé, expérimenté, esperto, esperti, avanzato, principal engineer, staff engineer',
  ],
  executive: [
    'executive, C-level, C-suite, CTO, CEO, CIO, CISO, CFO, COO, CPO, VP, VP Engineering, head of, Head of Engineering',
    'director, Direktor, directeur, dirigeant, dirigenti, décideurs, decision maker, Entscheider, Entscheidungsträger',
    'Führungskräfte, Führungskraft, Geschäftsführer, Geschäftsleitung, manager, leader, leadership, cadres',
    ...AUDIENCE_TERMS.founders,
    ...AUDIENCE_TERMS.investors,
  ],
};

export const FORMAT_TERMS: Record<Format, Terms> = {
  online: [
    'online, remote, virtual, virtuell, virtuel, virtuale, en ligne, livestream, live stream, webinar, webinaire',
    'web seminar, online-only, à distance, da remoto',
  ],
  in_person: [
    'in person, in-person, on-site, onsite, on site, IRL, vor Ort, Präsenz, Präsenzveranstaltung, physisch',
    'en présentiel, présentiel, en personne, sur place, in presenza, dal vivo, face-to-face, offline',
  ],
  hybrid: ['hybrid, hybride, ibrido, ibrida'],
};

export const PRICE_TERMS: Record<Price, Terms> = {
  free: [
    '^free, for free, free of charge, cost-free, free entry, free admission, no cost, gratis, kostenlos, kostenfrei, umsonst',
    'Eintritt frei, freier Eintritt, gratuit, gratuite, gratuitement, entrée libre, entrée gratuite, accès libre',
    'gratuito, gratuita, ingresso libero, ingresso gratuito',
  ],
  paid: ['paid, ticketed, kostenpflichtig, payant, payante, a pagamento'],
};

/** Event-type words: not topics; searches keep them as full-text words. */
export const EVENT_KIND_TERMS: Record<EventKind, Terms> = {
  meetup: [
    'meetup, meet-up, user group, usergroup, JUG, Stammtisch, Treffen, rencontre, ritrovo, incontro, incontri',
    'community meetup',
  ],
  conference: [
    'conference, conf, Konferenz, conférence, conferenza, conferenze, congress, Kongress, congrès, congresso',
    'congressi, summit, Gipfel',
    'sommet, symposium, Tagung, convention, forum, barcamp, unconference, unKonf, Unkonferenz, expo, Messe, salon',
    // A day of talks: "Postgres Tag", "Rust Day", "IT-Tage", "Datentag".
    'trade fair, trade show, festival, day, Tag, Tage, journée, giornata',
  ],
  workshop: [
    'workshop, atelier, laboratorio, training, Schulung, formation, bootcamp, masterclass, master class, tutorial',
    'hands-on, Kurs, seminar, séminaire, seminario, seminari, laboratori, code lab, codelab, coding dojo',
    'summer school, Sommerschule, école d’été, scuola estiva',
  ],
  hackathon: ['hackathon, hack day, hackday, hack night, hacknight, datathon, codefest, game jam'],
  talk: [
    'talk, tech talk, lightning talk, keynote, Vortrag, Referat, lecture, panel, panel discussion, Podiumsdiskussion',
    'table ronde, tavola rotonda, fireside chat, webinar, webinaire, web seminar',
  ],
  networking: [
    'networking, Netzwerken, réseautage, afterwork, after work, apéro, aperitivo, drinks, mixer, get-together',
    'happy hour, breakfast, Frühstück, Zmorge, petit-déjeuner, colazione, brunch, lunch, Mittagessen, pranzo, dinner',
    'Abendessen, dîner',
  ],
};

/** Words that, right after a `~` term, make it unambiguous ("Go developers", "Vue community", "R user group"). */
export const CONTEXT_WORDS =
  'developer, devs, dev, community, programming, language, lang, user, team, day, days, night, edition, entwickler, ' +
  'programmierung, developpeur, sviluppatori, jobs';

/** confs.tech topics → our slugs; `networking` is ambiguous there (computers or people) and maps to nothing. */
export const CONFS_TECH_TOPIC_MAP: Record<string, TopicSlug[]> = {
  accessibility: ['design'],
  android: ['mobile'],
  api: ['architecture'],
  cfml: ['programming-languages'],
  clojure: ['programming-languages'],
  cpp: ['programming-languages'],
  css: ['web'],
  data: ['data'],
  devops: ['cloud-devops'],
  dotnet: ['programming-languages'],
  elixir: ['programming-languages'],
  general: ['general'],
  golang: ['programming-languages'],
  graphql: ['architecture'],
  groovy: ['programming-languages'],
  haskell: ['programming-languages'],
  identity: ['security'],
  ios: ['mobile'],
  iot: ['hardware-iot'],
  java: ['programming-languages'],
  javascript: ['web'],
  kotlin: ['programming-languages', 'mobile'],
  leadership: ['leadership'],
  networking: [],
  opensource: ['open-source'],
  performance: ['cloud-devops'],
  php: ['programming-languages'],
  product: ['product'],
  python: ['programming-languages'],
  ruby: ['programming-languages'],
  rust: ['programming-languages'],
  scala: ['programming-languages'],
  security: ['security'],
  sre: ['cloud-devops'],
  swift: ['mobile', 'programming-languages'],
  'tech-comm': ['general'],
  testing: ['testing'],
  typescript: ['web'],
  ux: ['design'],
};
