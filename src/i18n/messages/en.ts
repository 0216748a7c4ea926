import { enAdd } from './add.en.js';
import { enMe } from './me.en.js';
import { enOAuth } from './oauth.en.js';

/**
 * English messages of the pages (ICU MessageFormat). The ids are the catalogue: every other language has exactly
 * these (typed as `Messages`), and test/pages-i18n.test.ts checks that each compiles and takes the same arguments.
 */
export const en = {
  'site.name': 'Tech events',
  'site.countries': 'Switzerland · Germany · Austria',
  'site.languages': 'Language',
  'site.footer': 'Free and open: {api} · {openapi} · MCP at {mcp}. We sell no tickets; every event links to its host.',
  'site.labelled': '{label}: {value}',
  'site.api': 'API',
  'site.dataAsOf': 'Data as of: {sources}.',
  'site.sourceAsOf': '{source} {time}',
  'site.sourceSnapshot': '{source} {date} (snapshot)',
  'site.sourceNotRead': '{source} not read yet',
  'site.sourceNotReadNext': '{source} not read yet, next try {time}',

  'coverage.heading': 'Why this list may be short',
  'coverage.calendarsNotRead':
    '{count, plural, one {# calendar} other {# calendars}} of {source} not read yet: {names}',
  'coverage.calendarsFailing':
    '{count, plural, one {# calendar} other {# calendars}} of {source} failing since {since}: {names}',
  'coverage.calendarsFailingNever':
    '{count, plural, one {# calendar} other {# calendars}} of {source} failing, never read: {names}',
  'coverage.sourceNotRead': '{source} not read yet',
  'coverage.sourceFailing': '{source} failing since {since}',
  'coverage.sourceFailingNever': '{source} failing, never read',
  'coverage.sourceFailingSnapshot': '{source} failing, never read: its shipped snapshot of {date} is loaded',
  'coverage.snapshot': '{source}: only its shipped snapshot, with data of {date}',
  'coverage.more': 'and {count} more',
  'coverage.syncOff': 'Feed sync is off in this service: nothing reads them until someone runs a sync.',
  'coverage.syncPending':
    'The service reads them on its schedule: it has not yet, or cannot reach them (no network access).',
  'coverage.held': 'What the catalogue holds now:',
  'coverage.country':
    '{country}: {count, plural, =0 {no upcoming events} one {# upcoming event} other {# upcoming events}}',
  'coverage.countryMonths':
    '{country}: {count, plural, one {# upcoming event} other {# upcoming events}}, next in {months}',
  'coverage.sources': 'Every source and calendar with its state: {link}.',
  'coverage.sourcesLink': 'Sources',

  'country.name':
    '{country, select, ch {Switzerland} de {Germany} all {Switzerland, Germany and Austria} other {Austria}}',
  'country.in':
    '{country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}',

  'home.title':
    'Tech events {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}',
  'home.description':
    'Find tech events in Switzerland, Germany and Austria — in plain words, in English, German, French or Italian.',
  'search.title': '{q} · Tech events',
  'search.label': 'What are you looking for?',
  'search.placeholder': 'e.g. AI meetups in Zürich for founders next week',
  'search.country': 'Country',
  'search.city': 'City',
  'search.cityAny': 'any',
  'search.topic': 'Topic',
  'search.format': 'Format',
  'search.any': 'any',
  'search.audience': 'Audience',
  'search.everyone': 'everyone',
  'search.founders': 'founders & executives',
  'search.submit': 'Search',
  'search.folded': 'Your search: {q}',
  'search.change': 'change',

  'errors.title': 'Please check:',
  'errors.city':
    '“{value}” is not a city we know {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}.',
  'errors.item': '{field}: {message}',
  'errors.tooLong': 'This is too long.',
  'errors.invalid': '“{value}” is not a value this field takes.',
  'errors.date': '“{value}” is not a date: write it as year-month-day, e.g. 2027-04-14.',
  'errors.field':
    '{field, select, q {Search} country {Country} city {City} topic {Topic} format {Format} who {Audience} seniority {Seniority} near {Near} org {Organizer} limit {Number of results} from {From} to {Until} cfp {Call for papers} other {Field}}',

  'results.count': '{count, plural, =0 {no events} one {# event} other {# events}}',
  'results.upcoming':
    'Upcoming events {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}',
  'results.lookingFor': 'Looking for: {query}',
  'results.summary': '{understood} — {count}.',
  'results.outputs': 'This list as {markdown} · {json} · calendar {https} / {webcal} · {feed}',
  'results.feed': 'Atom feed',
  'map.caption': 'Where these events are, by city',
  'map.marker': '{place}: {count, plural, one {# event} other {# events}}',
  'embed.none': 'No upcoming events match this search.',
  'embed.more': 'This search on tech-events',
  'embed.failed': 'The events could not be loaded just now.',
  'embed.title': 'Embed this list',
  'embed.help': 'Paste this into any web page to show this list there, kept up to date; it needs no key:',
  'results.markdown': 'markdown',
  'results.order': 'Order',
  'results.byRelevance': 'best match first',
  'results.byDate': 'by date',
  'results.heading': 'Results',
  'results.why': 'Why it matches',
  'results.alsoListedAt': 'Also listed at {sites}',

  'restate.head': '{price} {format} {formatExactly} {subject} {kind}',
  'restate.about': '{subject}',
  'restate.withTopic': '{subject} (topic {topics})',
  'restate.events': 'events',
  'restate.upcoming': 'upcoming events',
  'restate.tail': ' {part}',
  'restate.level':
    '{level, select, student {students} junior {juniors & beginners} mid {mid-level} senior {seniors & experts} other {executives & leaders}}',
  'restate.titled': 'The event titled “{phrase}”, then {rest}',

  'period.today': 'Today',
  'period.tomorrow': 'Tomorrow',
  'period.thisWeek': 'This week',
  'period.nextWeek': 'Next week',
  'period.thisWeekend': 'This weekend',
  'period.nextWeekend': 'Next weekend',
  'day.heading': '{period} · {date}',
  'window.span': '{period} ({range})',

  'when.at': '{date} · {time}',
  'when.allDay': 'Full day',
  'when.until': '{when}, until {last}',
  'where.online': 'Online',
  'where.tba': 'To be announced',
  'where.alsoOnline': '{place} · also online',

  'topic.ai-ml': 'AI & ML',
  'topic.data': 'Data',
  'topic.cloud-devops': 'Cloud & DevOps',
  'topic.security': 'Security',
  'topic.web': 'Web',
  'topic.mobile': 'Mobile',
  'topic.programming-languages': 'Programming languages',
  'topic.architecture': 'Software architecture & APIs',
  'topic.testing': 'Testing & QA',
  'topic.open-source': 'Open source',
  'topic.blockchain': 'Blockchain & crypto',
  'topic.fintech': 'Fintech',
  'topic.healthtech': 'Health tech',
  'topic.biotech': 'Biotech & life sciences',
  'topic.climate': 'Climate & sustainability',
  'topic.hardware-iot': 'Hardware, IoT & embedded',
  'topic.robotics': 'Robotics',
  'topic.quantum': 'Quantum',
  'topic.gaming': 'Gaming & XR',
  'topic.product': 'Product & agile',
  'topic.design': 'Design & UX',
  'topic.startups': 'Startups',
  'topic.leadership': 'Engineering leadership',
  'topic.career': 'Careers & diversity',
  'topic.general': 'General tech',

  'format.in_person': 'In person',
  'format.online': 'Online',
  'format.hybrid': 'Hybrid',

  'kind.meetup': 'Meetup',
  'kind.conference': 'Conference',
  'kind.workshop': 'Workshop / training',
  'kind.hackathon': 'Hackathon',
  'kind.talk': 'Talk / webinar',
  'kind.networking': 'Networking',

  'price.free': 'Free',
  'price.paid': 'Paid',
  'price.unknown': 'Price not given',

  'language.label': 'Language',
  'language.in': 'In {languages}',
  'cfp.open': 'Call for papers open until {date}',
  'cfp.openNoDeadline': 'Call for papers open',

  'search.allCountries': 'All three countries',
  'results.applied':
    'Searched {country, select, ch {in Switzerland} de {in Germany} all {in all three countries} other {in Austria}}, as your search asks, rather than in the country chosen in the menu.',
  'alternatives.heading': 'Close, but not everything you asked for',
  'alternatives.intro': 'These are not matches: each misses one thing you asked for.',
  'alternatives.differs': 'Differs: {what}',
  'alternatives.none': 'Nothing matches all of this.',
  'alternatives.widen': 'Without “{what}”: {count, plural, one {# event} other {# events}}',
  'alternatives.nothingClose': 'Nothing misses only one thing either: try asking for less.',
  'empty.country':
    'Nothing upcoming {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}} right now.',
  'empty.nothing': 'The catalogue has no upcoming events yet.',

  'event.cancelledTitle': 'Cancelled: {title}',
  'event.cancelled': 'This event has been cancelled by its host.',
  'event.cancelledKept': 'The page stays up so that links keep working.',
  'event.cta': "Tickets & registration on the host's site",
  'event.original': "The host's original page",
  'event.when': 'When',
  'event.where': 'Where',
  'event.map': 'Show on OpenStreetMap',
  'event.host': 'Organizer',
  'event.unknownOrganizer': 'Organizer not given',
  'event.price': 'Price',
  'event.noTickets': 'we sell no tickets; the host does.',
  'event.topics': 'Topics',
  'event.format': 'Format',
  'event.registration': 'Registration',
  'event.cfp': 'Call for papers',
  'event.about': 'About',
  'event.addToCalendar': 'Add to your calendar',
  'event.google': 'Google Calendar',
  'event.outlook': 'Outlook.com',
  'event.office': 'Outlook (Microsoft 365)',
  'event.apple': 'Apple Calendar, Thunderbird and others (.ics)',
  'event.webcal': 'Subscribe (webcal)',
  'event.alsoListedAt': 'Also listed at',
  'event.backToSearch':
    'All events {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}',

  'registration.open': 'Open',
  'registration.invite': 'By invitation',
  'registration.waitlist': 'Waitlist',
  'registration.cancelled': 'None: the event is cancelled',

  'sources.heading': 'Sources',
  'sources.description':
    'Where the events of this catalogue come from, under which licence, and how current each source is.',
  'sources.syncHours': 'Feeds are synced {hours, plural, one {every hour} other {every # hours}}.',
  'sources.syncMinutes': 'Feeds are synced {minutes, plural, one {every minute} other {every # minutes}}.',
  'sources.syncOff': 'Syncing is off in this service.',
  'sources.json': 'Also as JSON: {link}.',
  'sources.never': 'never',
  'sources.column':
    '{column, select, source {Source} kind {Kind} licence {Licence} state {State} dataAsOf {Data as of} lastAttempt {Last attempt} upcoming {Upcoming} other {Cancelled}}',
  'sources.kind': '{kind, select, host {pushed by hosts} other {imported}}',
  'sources.state':
    '{state, select, off {off (listed in the feeds file, not synced)} ok {ok} snapshot {shipped snapshot, not synced yet} pending {not synced yet} other {—}}',
  'sources.failing': 'failing ({failures, plural, one {# run} other {# runs}}):',
  'sources.notRead': 'not read yet',
  'sources.notReadFailed': 'not read yet:',
  'sources.nextTry': 'next try {time}',
  'sources.calendarsNotRead':
    'None of these calendars has been read yet, so their events are not listed; the next try is {time}.',
  'sources.snapshotOf': 'snapshot of {date}',
  'sources.calendarsHeading': 'The {count} calendars of {source}',
  'sources.calendarColumn':
    '{column, select, calendar {Calendar} city {City} state {State} lastChanged {Last changed} other {Upcoming}}',
  'sources.proposedByCommunity': 'proposed by its community, accepted on {date}',
  'sources.calendarState':
    '{state, select, ok {ok} pending {not synced yet} gone {gone (its events stay):} unread {not read yet:} other {failing (its events stay):}}',

  'sources.summary': '{count, plural, one {# source} other {# sources}}: {parts}.',
  'sources.summaryPart':
    '{state, select, read {{count, plural, other {# read}}} snapshot {{count, plural, other {# only from the shipped snapshot}}} failing {{count, plural, other {# failing}}} unread {{count, plural, other {# not read yet}}} off {{count, plural, other {# off}}} other {{count, plural, other {# pushed by hosts or imported}}}}',
  'sources.summaryCalendars': '{read, number} of {count, plural, one {# calendar} other {# calendars}} read.',
  'sources.calendarCount':
    '{state, select, ok {{count, number} ok} pending {{count, number} not synced yet} gone {{count, number} gone} unread {{count, number} not read yet} other {{count, number} failing}}',
  'sources.cause':
    '{cause, select, refused {the server refused the connection} dns {its host was not found} network {the network failed} timeout {no answer in time} http {the server answered HTTP {status}} redirects {too many redirects} tooLarge {the answer was too large} other {the read failed}}',
  'notFound.title': 'Not found · Tech events',
  'notFound.heading': 'Not found',
  'notFound.country': 'There is no country “{country}” here.',
  'notFound.event':
    'There is no event “{id}” {country, select, ch {in Switzerland} de {in Germany} all {in Switzerland, Germany and Austria} other {in Austria}}.',
  'notFound.search': 'Search all events',
  ...enAdd,
  ...enOAuth,
  ...enMe,
} as const;

export type MessageId = keyof typeof en;
export type Messages = Record<MessageId, string>;
