/**
 * English messages of the pages where communities add themselves (`/add`, `/add/<id>`) and the operator moderates
 * (`/admin`), kept apart from the rest of the catalogue; `en.ts` takes them in, the other languages as theirs.
 */
export const enAdd = {
  'add.title': 'Add your community',
  'add.description':
    'Propose your group’s calendar for the catalogue, or ask for a host key to push your events. Nothing personal is asked.',
  'add.intro':
    'Communities add themselves here. Each proposal waits for the operator, who looks at it before anything is listed.',
  'add.private':
    'Nothing personal is asked or kept: no e-mail, no name, no account. The address of the status page you get is your only receipt: keep it.',
  'add.calendarHeading': 'Propose a calendar',
  'add.calendarHelp':
    'We read the calendar once, now, and show you what it would list. Once the operator accepts it, it is synced with the others.',
  'add.accepted': 'These addresses are accepted:',
  'add.acceptedMeetup': 'a Meetup group’s page, e.g. {example}',
  'add.acceptedLuma': 'a Luma calendar’s iCal link (“Subscribe” → “iCal”)',
  'add.acceptedGoogle': 'a public Google calendar: its public address or its embed link',
  'add.acceptedBevy': 'a Bevy chapter page: Google Developer Groups ({gdg}) or CNCF ({cncf})',
  'add.acceptedIcal': 'any other iCal address (https:// or webcal://)',
  'add.url': 'Calendar address',
  'add.city': 'City, for events that do not say where they are',
  'add.country': 'Country, for events that do not say',
  'add.countryNone': 'not given',
  'add.name': 'Group name (optional)',
  'add.submitCalendar': 'Propose this calendar',
  'add.keyHeading': 'Ask for a host key',
  'add.keyHelp':
    'A host key lets your organisation publish and change its own events over the API (or link its calendars). Once the operator accepts, the key is shown on your status page once.',
  'add.organisation': 'Organisation',
  'add.keyCountry': 'Country',
  'add.plans': 'What you will publish',
  'add.plansPlaceholder': 'e.g. our monthly meetups in Basel, about a dozen a year',
  'add.website': 'Website (optional)',
  'add.submitKey': 'Ask for a key',
  'add.moderationHeading': 'What the operator checks',
  'add.moderation':
    'That the calendar or organisation belongs to a tech community, that its events are public and held in Switzerland, Germany or Austria (or online), that they are what they say, and that nothing is listed twice. A refusal says why, on the status page.',
  'add.errorsTitle': 'Please check:',
  'add.field':
    '{field, select, url {Calendar address} city {City} country {Country} name {Group name} organisation {Organisation} plans {What you will publish} website {Website} other {Field}}',
  'add.privateAddress':
    'This address is on a private or local network: the service reads public addresses only, and did not connect to it.',
  'add.rateLimited':
    'Too many proposals from your address just now: please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  'add.full':
    'Many proposals are waiting for the operator just now, and no more are taken until they are looked at: please try again later.',
  'add.link': 'Add your community',
  'add.missing': 'Is your community’s calendar missing? {link}.',

  'proposal.title': 'Your proposal',
  'proposal.headingCalendar': 'A proposed calendar',
  'proposal.headingKey': 'A request for a host key',
  'proposal.keep': 'Keep this page’s address: it is the only way back to this proposal.',
  'proposal.state':
    '{state, select, reading {Being read} waiting {Waiting for the operator} accepted {Accepted} rejected {Refused} removed {Removed} other {Unknown}}',
  'proposal.stateLabel': 'State',
  'proposal.sent': 'Sent',
  'proposal.reading':
    'The service is reading the calendar now. This page reloads itself in a few seconds; or {reload}.',
  'proposal.reload': 'reload it',
  'proposal.pending': 'The operator has not decided yet; this page will show the decision.',
  'proposal.acceptedCalendar': 'Accepted on {date}: the calendar is synced with the others and its events are listed.',
  'proposal.acceptedKey': 'Accepted on {date}.',
  'proposal.rejected': 'Refused on {date}.',
  'proposal.removed': 'Removed on {date}: its upcoming events are no longer listed.',
  'proposal.reason': 'The operator’s reason',
  'proposal.keyOnce': 'Your host key. Copy it now: it is shown this once, never again.',
  'proposal.keyUse': 'Send it as {header} with every write to the API.',
  'proposal.keyShown': 'The key was shown here on {date}, once. If it was lost, ask for a new one.',
  'proposal.address': 'Address',
  'proposal.read': 'Read as',
  'proposal.platform':
    '{platform, select, meetup {a Meetup group’s calendar} luma {a Luma calendar} google {a Google calendar} bevy {a Bevy chapter’s events} other {an iCal calendar}}',
  'proposal.where': 'Where, when its events do not say',
  'proposal.name': 'Group name',
  'proposal.organisation': 'Organisation',
  'proposal.plans': 'What it will publish',
  'proposal.website': 'Website',
  'proposal.previewHeading': 'What we read',
  'proposal.previewState':
    '{state, select, ok {The calendar reads well.} empty {The calendar reads, but holds no upcoming events.} gone {The calendar is gone (its host answers that it does not exist).} failing {The calendar could not be read.} other {This is not an iCal calendar.}}',
  'proposal.previewCount':
    '{count, plural, =0 {No upcoming events.} one {# upcoming event; it would list:} other {# upcoming events; the next it would list:}}',
  'proposal.cut': 'The read stopped at one of its limits and kept the first events:',
  'proposal.synced':
    '{synced, select, feeds {It is already synced: it is in the service’s list of calendars.} host {It is already synced: a host has linked it.} community {It is already synced: it was proposed and accepted before.} other {It is not synced yet.}}',
  'proposal.placeFrom':
    '{from, select, event {place given by the event} description {place found in its description} calendar {place from the city given for the calendar} online {online} other {place unknown}}',
  'proposal.online': 'Online',
  'proposal.noPlace': 'no place',
  'proposal.notFound': 'There is no proposal “{id}” here.',
  'proposal.again': 'Propose another',

  'admin.title': 'Moderation',
  'admin.signIn':
    'Sign in with the admin token as the password (the user name is not checked). Without it, this page answers nothing.',
  'admin.pendingHeading': 'Waiting for a decision ({count, number})',
  'admin.none': 'Nothing waits.',
  'admin.accept': 'Accept',
  'admin.reject': 'Refuse',
  'admin.remove': 'Remove',
  'admin.reason': 'Reason',
  'admin.reasonOptional': 'Reason (optional)',
  'admin.acceptedHeading': 'Accepted community calendars ({count, number})',
  'admin.logHeading': 'Recent decisions',
  'admin.logColumn': '{column, select, at {When} actor {Who} action {What} proposal {Proposal} other {Reason}}',
  'admin.actor': '{actor, select, cli {command line} adminPage {admin page} adminApi {admin API} other {{actor}}}',
  'admin.action':
    '{action, select, accept {accepted} reject {refused} remove {removed} propose {proposed} other {{action}}}',
  'admin.kind': '{kind, select, calendar {calendar} other {host key}}',
  'admin.noLog': 'No decisions yet.',
  'admin.crossOrigin': 'Refused: this form was not sent from this site’s own page.',
} as const;
