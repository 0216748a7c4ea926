/**
 * Technologies: one thing within a topic's field (Java, PostgreSQL), named by several terms (its spellings, its own
 * series: "JCON" and "JUG" are Java) and part of wider ones (Spring Boot is Java, Svelte is JavaScript); the field is
 * the widest. Ranking reads a prompt's specific term through this table: the same technology or a part of it is what
 * was asked; a wider one or the field is acceptable; a neighbour (PyCon for "Java") is not.
 * Every term must be a topic term of the lexicon (a test checks); one not listed is a technology of its own.
 */

import type { TopicSlug } from './taxonomy.js';

export interface Technology {
  /** Comma-separated lexicon terms naming it. */
  terms: string;
  /** The wider technologies it is part of. */
  within?: readonly string[];
}

export const TECHNOLOGIES: Record<string, Technology> = {
  // AI & ML
  'machine-learning': {
    terms:
      'machine learning, maschinelles Lernen, apprentissage automatique, apprendimento automatico, ML, MLCon, ' +
      'Minds Mastering Machines',
  },
  mlops: { terms: 'MLOps', within: ['machine-learning'] },
  genai: { terms: 'GenAI, generative AI, gen AI, generative KI, IA générative, IA generativa, vibe coding' },
  llm: {
    terms:
      'LLM, large language model, Sprachmodell, foundation model, GPT, ChatGPT, OpenAI, retrieval augmented generation, ' +
      'prompt engineering',
    within: ['genai'],
  },
  'ai-agents': { terms: 'AI agent, agentic', within: ['llm'] },
  'deep-learning': {
    terms:
      'deep learning, neural network, neuronales Netz, neuronale Netze, réseau de neurones, réseaux de neurones, ' +
      'PyTorch, TensorFlow, Hugging Face',
    within: ['machine-learning'],
  },
  nlp: { terms: 'NLP, natural language processing' },
  // Data
  database: { terms: 'database, Datenbank, base de données, bases de données, SQL, NoSQL' },
  postgres: { terms: 'PostgreSQL, Postgres, PGConf, PGDay', within: ['database'] },
  mysql: { terms: 'MySQL, MariaDB', within: ['database'] },
  mongodb: { terms: 'MongoDB', within: ['database'] },
  elasticsearch: { terms: 'Elasticsearch', within: ['database'] },
  'data-science': {
    terms:
      'data science, data scientist, Datenwissenschaft, statistics, Statistik, statistiques, statistica, R, rstats',
  },
  pydata: { terms: 'PyData', within: ['python', 'data-science'] },
  'data-engineering': { terms: 'data engineering, data engineer, data warehouse, data lake, lakehouse, data mesh' },
  kafka: { terms: 'Kafka', within: ['data-engineering'] },
  spark: { terms: 'Apache Spark, Databricks', within: ['data-engineering'] },
  snowflake: { terms: 'Snowflake', within: ['data-engineering'] },
  fabric: { terms: 'Microsoft Fabric', within: ['data-engineering'] },
  analytics: {
    terms:
      'analytics, data analytics, Datenanalyse, analyse de données, business intelligence, BI, Power BI, Tableau, ' +
      'data visualization, Datenvisualisierung',
  },
  // Cloud & DevOps
  containers: {
    terms:
      'Kubernetes, k8s, KubeCon, CloudNativeCon, KCD, cloud native, container, ContainerDays, ContainerConf, Docker',
  },
  sre: { terms: 'SRE, SREday, site reliability engineering' },
  observability: { terms: 'observability, monitoring, Prometheus, Grafana, OpenTelemetry', within: ['sre'] },
  'platform-engineering': { terms: 'platform engineering' },
  cicd: { terms: 'CI/CD, continuous delivery, continuous integration, continuous deployment, GitOps' },
  iac: { terms: 'infrastructure as code, IaC, Ansible' },
  terraform: { terms: 'Terraform, OpenTofu', within: ['iac'] },
  aws: { terms: 'AWS, Amazon Web Services' },
  gcp: { terms: 'GCP, Google Cloud' },
  // Security
  appsec: { terms: 'AppSec, application security, OWASP, devSec' },
  offensive: {
    terms:
      'pentest, pentesting, penetration testing, Penetrationstest, hacking, ethical hacking, bug bounty, red team, ' +
      'CTF, capture the flag',
  },
  privacy: { terms: 'privacy, Datenschutz, protection des données, GDPR, DSGVO, RGPD' },
  identity: { terms: 'digital identity, identity management, identity and access management, IAM' },
  cryptography: { terms: 'cryptography, Kryptographie, Kryptografie, cryptographie' },
  malware: { terms: 'malware, ransomware' },
  grc: { terms: 'GRC, risk management' },
  // Web
  frontend: { terms: 'frontend, front-end, Frontend-Entwicklung' },
  javascript: { terms: 'JavaScript, JS, JSConf, ECMAScript' },
  typescript: { terms: 'TypeScript', within: ['javascript'] },
  node: { terms: 'Node.js, Deno', within: ['javascript'] },
  react: { terms: 'React, Next.js', within: ['javascript', 'frontend'] },
  angular: { terms: 'Angular, AngularJS', within: ['javascript', 'frontend'] },
  vue: { terms: 'Vue, Vue.js, Nuxt', within: ['javascript', 'frontend'] },
  svelte: { terms: 'Svelte, SvelteKit', within: ['javascript', 'frontend'] },
  jquery: { terms: 'jQuery', within: ['javascript', 'frontend'] },
  css: { terms: 'CSS, Sass, Tailwind', within: ['frontend'] },
  wasm: { terms: 'WebAssembly, Wasm' },
  wordpress: { terms: 'WordPress', within: ['php'] },
  drupal: { terms: 'Drupal', within: ['php'] },
  joomla: { terms: 'Joomla', within: ['php'] },
  typo3: { terms: 'TYPO3', within: ['php'] },
  shopware: { terms: 'Shopware', within: ['php'] },
  magento: { terms: 'Magento', within: ['php'] },
  symfony: { terms: 'Symfony, SymfonyLive', within: ['php'] },
  laravel: { terms: 'Laravel', within: ['php'] },
  django: { terms: 'Django, DjangoCon', within: ['python'] },
  rails: { terms: 'Ruby on Rails', within: ['ruby'] },
  // Mobile
  ios: { terms: 'iOS, CocoaHeads' },
  swift: { terms: 'Swift, SwiftUI, swiftcon', within: ['ios'] },
  android: { terms: 'Android, droidcon, Jetpack Compose' },
  kotlin: { terms: 'Kotlin, KotlinConf, Kotlin Multiplatform, Ktor', within: ['jvm', 'android'] },
  dart: { terms: 'Dart' },
  flutter: { terms: 'Flutter, Fluttercon', within: ['dart', 'android', 'ios'] },
  'react-native': { terms: 'React Native', within: ['react', 'android', 'ios'] },
  maui: { terms: 'MAUI, Xamarin', within: ['dotnet'] },
  // Programming languages
  python: { terms: 'Python, PyCon, Pythonista, EuroPython' },
  rust: { terms: 'Rust, RustConf, Rustacean, RustFest' },
  go: { terms: 'Go, Golang, GopherCon, Gopher' },
  jvm: { terms: 'JVM' },
  java: { terms: 'Java, JUG, JavaLand, JCON, JAX, W-JAX, Jakarta EE', within: ['jvm'] },
  spring: { terms: 'Spring Boot, Spring Framework, SpringOne', within: ['java'] },
  quarkus: { terms: 'Quarkus', within: ['java'] },
  scala: { terms: 'Scala', within: ['jvm', 'functional'] },
  groovy: { terms: 'Groovy', within: ['jvm'] },
  clojure: { terms: 'Clojure', within: ['jvm', 'functional'] },
  dotnet: { terms: '.NET, dotnet, ASP.NET, C#, BASTA, Blazor' },
  fsharp: { terms: 'F#', within: ['dotnet', 'functional'] },
  cpp: { terms: 'C++, CppCon, Meeting C++' },
  'embedded-cpp': { terms: 'emBO++', within: ['cpp', 'embedded'] },
  php: { terms: 'PHP' },
  ruby: { terms: 'Ruby' },
  erlang: { terms: 'Erlang', within: ['functional'] },
  elixir: { terms: 'Elixir, ElixirConf', within: ['erlang'] },
  haskell: { terms: 'Haskell', within: ['functional'] },
  ocaml: { terms: 'OCaml', within: ['functional'] },
  lisp: { terms: 'Lisp', within: ['functional'] },
  functional: { terms: 'functional programming, funktionale Programmierung, programmation fonctionnelle' },
  julia: { terms: 'JuliaCon' },
  delphi: { terms: 'Delphi, EKON' },
  compilers: { terms: 'compiler, Compilerbau' },
  // Software architecture & APIs
  api: { terms: 'API, API design, APIdays, REST API, RESTful, OpenAPI' },
  graphql: { terms: 'GraphQL', within: ['api'] },
  grpc: { terms: 'gRPC', within: ['api'] },
  ddd: { terms: 'domain-driven design, DDD' },
  'event-driven': { terms: 'event-driven, event sourcing, CQRS' },
  'clean-code': { terms: 'clean code, clean architecture, software craftsmanship' },
  'distributed-systems': { terms: 'distributed systems, verteilte Systeme, systèmes distribués' },
  backend: { terms: 'backend, back-end, Backend-Entwicklung' },
  // Testing & QA
  'test-automation': {
    terms: 'test automation, Testautomatisierung, automatisation des tests, E2E, end-to-end testing',
  },
  playwright: { terms: 'Playwright', within: ['test-automation'] },
  selenium: { terms: 'Selenium', within: ['test-automation'] },
  cypress: { terms: 'Cypress', within: ['test-automation'] },
  tdd: { terms: 'TDD, BDD, test-driven development, unit testing' },
  // Open source
  linux: { terms: 'Linux, GNU' },
  innersource: { terms: 'InnerSource, inner source' },
  // Blockchain & crypto
  ethereum: { terms: 'Ethereum, Solidity' },
  defi: { terms: 'DeFi, decentralized finance' },
  cryptocurrency: {
    terms: 'cryptocurrency, Kryptowährung, cryptomonnaie, criptovaluta, criptovalute, stablecoin, digital assets',
  },
  // Fintech
  banking: { terms: 'banking, Banken, Bankwesen, banque, banca, open banking, neobank' },
  payments: { terms: 'payments, payment, Zahlungsverkehr, paiement, pagamenti' },
  insurtech: { terms: 'insurtech, insurance, Versicherung, assurance' },
  // Health tech, biotech
  medtech: { terms: 'medtech, medical technology, Medizintechnik' },
  bioinformatics: {
    terms: 'bioinformatics, Bioinformatik, bioinformatique, bioinformatica, computational biology',
  },
  pharma: { terms: 'pharma, pharmaceutical, drug discovery' },
  // Climate
  energy: {
    terms:
      'energy, Energie, énergie, energia, Energiewende, renewable energy, erneuerbare Energien, solar, photovoltaics',
  },
  'circular-economy': { terms: 'circular economy, Kreislaufwirtschaft, économie circulaire' },
  carbon: { terms: 'carbon, CO2, net zero, decarbonization, Dekarbonisierung' },
  'green-software': { terms: 'green IT, green software' },
  // Hardware, IoT & embedded
  embedded: {
    terms:
      'embedded, embedded systems, eingebettete Systeme, systèmes embarqués, firmware, microcontroller, ' +
      'Mikrocontroller, Arduino, Raspberry Pi',
  },
  'industry-4': { terms: 'Industrie 4.0, Industry 4.0, IIoT' },
  semiconductors: { terms: 'semiconductor, Halbleiter, semi-conducteurs, chip design, FPGA, RISC-V' },
  maker: { terms: 'maker, Maker Faire, makerspace, 3D printing, 3D-Druck, impression 3D' },
  electronics: { terms: 'electronics, Elektronik, électronique, elettronica, PCB' },
  // Robotics
  ros: { terms: 'ROS, ROS 2, Robot Operating System' },
  drones: { terms: 'drone, Drohne, droni, UAV' },
  autonomous: {
    terms:
      'autonomous systems, autonome Systeme, systèmes autonomes, autonomous driving, autonomes Fahren, ' +
      'conduite autonome, guida autonoma, self-driving, autonomous vehicle, autonomous mobility',
  },
  // Gaming & XR
  xr: {
    terms:
      'AR/VR, VR, XR, virtual reality, augmented reality, mixed reality, réalité virtuelle, réalité augmentée, ' +
      'virtuelle Realität, erweiterte Realität, metaverse',
  },
  esports: { terms: 'esports, e-sports' },
  // Product & agile
  agile: { terms: 'agile, Agilität, agilité, Scrum, Scrum Master, Kanban' },
  'project-management': { terms: 'project management, Projektmanagement, gestion de projet' },
  // Design & UX
  accessibility: {
    terms: 'accessibility, a11y, Barrierefreiheit, barrierefrei, accessibilité, accessibilità, inclusive design',
  },
  'ux-research': { terms: 'user research, UX research, usability, Benutzerfreundlichkeit' },
  // Startups
  'venture-capital': { terms: 'venture capital, Risikokapital, capital-risque, fundraising, seed funding' },
  pitching: { terms: 'pitch, pitching, pitch night, demo day' },
  accelerators: { terms: 'accelerator, incubator, Inkubator, incubateur, incubatore' },
  // Careers & diversity
  'women-in-tech': { terms: 'women in tech, women, Frauen, femmes, girls' },
  diversity: { terms: 'diversity, Diversität, diversité, diversità, inclusion, Inklusion, LGBTQ, queer' },
  jobs: {
    terms:
      'job, job fair, career fair, career day, Jobmesse, Karrieremesse, Karrieretag, forum emploi, ' +
      'hiring, recruiting, recruitment, recrutement, reclutamento',
  },
  mentoring: { terms: 'mentoring, mentorat, mentorship' },
};

/** Series about a whole field: typed, a name like any other; in a title, evidence of the field. */
export const FIELD_SERIES: Partial<Record<TopicSlug, string>> = {
  data: 'data2day',
  'cloud-devops': 'DevOpsDays, DevOpsCon',
  security: 'Nullcon, RuhrSec',
  web: 'Webinale',
  'open-source': 'FOSDEM',
  blockchain: 'Crypto Valley',
  product: 'ProductTank, Mind the Product',
  design: 'uxcon, SmashingConf, DDUX',
  startups: 'Startup Weekend, Venturelab',
  leadership: 'LeadDev',
  gaming: 'Gamescom',
};
