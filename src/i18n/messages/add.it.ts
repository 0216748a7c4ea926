import type { enAdd } from './add.en.js';

/** Italian messages of `/add`, `/add/<id>` and `/admin` (see add.en.ts). */
export const itAdd: Record<keyof typeof enAdd, string> = {
  'add.title': 'Aggiungi la tua community',
  'add.description':
    'Proponi il calendario del tuo gruppo per il catalogo, o chiedi una chiave da organizzatore per pubblicare i tuoi eventi. Non si chiede nulla di personale.',
  'add.intro':
    'Qui le community si aggiungono da sole. Ogni proposta attende il gestore, che la esamina prima che qualcosa venga elencato.',
  'add.private':
    'Non si chiede né si conserva nulla di personale: nessuna e-mail, nessun nome, nessun account. L’indirizzo della pagina di stato che ricevi è la tua unica ricevuta: conservalo.',
  'add.calendarHeading': 'Proponi un calendario',
  'add.calendarHelp':
    'Leggiamo il calendario una volta, adesso, e ti mostriamo cosa elencherebbe. Quando il gestore lo accetta, viene sincronizzato con gli altri.',
  'add.accepted': 'Questi indirizzi sono accettati:',
  'add.acceptedMeetup': 'la pagina di un gruppo Meetup, ad es. {example}',
  'add.acceptedLuma': 'il link iCal di un calendario Luma («Iscriviti» → «iCal»)',
  'add.acceptedGoogle': 'un calendario Google pubblico: il suo indirizzo pubblico o il link di incorporamento',
  'add.acceptedBevy': 'la pagina di un chapter Bevy: Google Developer Groups ({gdg}) o CNCF ({cncf})',
  'add.acceptedIcal': 'qualsiasi altro indirizzo iCal (https:// o webcal://)',
  'add.url': 'Indirizzo del calendario',
  'add.city': 'Città, per gli eventi che non dicono dove si tengono',
  'add.country': 'Paese, per gli eventi che non lo dicono',
  'add.countryNone': 'non indicato',
  'add.name': 'Nome del gruppo (facoltativo)',
  'add.submitCalendar': 'Proponi questo calendario',
  'add.keyHeading': 'Chiedi una chiave da organizzatore',
  'add.keyHelp':
    'Con una chiave da organizzatore la tua organizzazione pubblica e modifica i propri eventi tramite l’API (o collega i propri calendari). Quando il gestore accetta, la chiave viene mostrata una volta sulla tua pagina di stato.',
  'add.organisation': 'Organizzazione',
  'add.keyCountry': 'Paese',
  'add.plans': 'Cosa pubblicherai',
  'add.plansPlaceholder': 'ad es. i nostri meetup mensili a Basilea, una dozzina all’anno',
  'add.website': 'Sito web (facoltativo)',
  'add.submitKey': 'Chiedi una chiave',
  'add.moderationHeading': 'Cosa controlla il gestore',
  'add.moderation':
    'Che il calendario o l’organizzazione appartenga a una community tech, che i suoi eventi siano pubblici e si tengano in Svizzera, Germania o Austria (o online), che siano ciò che dicono di essere e che nulla sia elencato due volte. Un rifiuto dice perché, sulla pagina di stato.',
  'add.errorsTitle': 'Controlla:',
  'add.field':
    '{field, select, url {Indirizzo del calendario} city {Città} country {Paese} name {Nome del gruppo} organisation {Organizzazione} plans {Cosa pubblicherai} website {Sito web} other {Campo}}',
  'add.privateAddress':
    'Questo indirizzo è su una rete privata o locale: il servizio legge solo indirizzi pubblici e non vi si è collegato.',
  'add.rateLimited':
    'Troppe proposte dal tuo indirizzo in questo momento: riprova tra {minutes, plural, one {# minuto} other {# minuti}}.',
  'add.full':
    'Molte proposte attendono il gestore in questo momento, e non se ne accettano altre finché non le ha esaminate: riprova più tardi.',
  'add.link': 'Aggiungi la tua community',
  'add.missing': 'Manca il calendario della tua community? {link}.',

  'proposal.title': 'La tua proposta',
  'proposal.headingCalendar': 'Un calendario proposto',
  'proposal.headingKey': 'Una richiesta di chiave da organizzatore',
  'proposal.keep': 'Conserva l’indirizzo di questa pagina: è l’unico modo per tornare a questa proposta.',
  'proposal.state':
    '{state, select, reading {In lettura} waiting {In attesa del gestore} accepted {Accettata} rejected {Rifiutata} removed {Rimossa} other {Sconosciuto}}',
  'proposal.stateLabel': 'Stato',
  'proposal.sent': 'Inviata',
  'proposal.reading':
    'Il servizio sta leggendo il calendario. Questa pagina si ricarica da sola tra pochi secondi; oppure {reload}.',
  'proposal.reload': 'ricaricala',
  'proposal.pending': 'Il gestore non ha ancora deciso; questa pagina mostrerà la decisione.',
  'proposal.acceptedCalendar':
    'Accettata il {date}: il calendario è sincronizzato con gli altri e i suoi eventi sono elencati.',
  'proposal.acceptedKey': 'Accettata il {date}.',
  'proposal.rejected': 'Rifiutata il {date}.',
  'proposal.removed': 'Rimossa il {date}: i suoi eventi futuri non sono più elencati.',
  'proposal.reason': 'Il motivo del gestore',
  'proposal.keyOnce': 'La tua chiave da organizzatore. Copiala ora: viene mostrata solo questa volta.',
  'proposal.keyUse': 'Inviala come {header} con ogni scrittura nell’API.',
  'proposal.keyShown': 'La chiave è stata mostrata qui il {date}, una volta. Se è andata persa, chiedine una nuova.',
  'proposal.address': 'Indirizzo',
  'proposal.read': 'Letto come',
  'proposal.platform':
    '{platform, select, meetup {il calendario di un gruppo Meetup} luma {un calendario Luma} google {un calendario Google} bevy {gli eventi di un chapter Bevy} other {un calendario iCal}}',
  'proposal.where': 'Luogo, quando i suoi eventi non lo dicono',
  'proposal.name': 'Nome del gruppo',
  'proposal.organisation': 'Organizzazione',
  'proposal.plans': 'Cosa pubblicherà',
  'proposal.website': 'Sito web',
  'proposal.previewHeading': 'Cosa abbiamo letto',
  'proposal.previewState':
    '{state, select, ok {Il calendario si legge bene.} empty {Il calendario si legge, ma non contiene eventi futuri.} gone {Il calendario non esiste più (il suo server risponde che non esiste).} failing {Non è stato possibile leggere il calendario.} other {Questo non è un calendario iCal.}}',
  'proposal.previewCount':
    '{count, plural, =0 {Nessun evento futuro.} one {# evento futuro; elencherebbe:} other {# eventi futuri; i prossimi che elencherebbe:}}',
  'proposal.cut': 'La lettura si è fermata a uno dei suoi limiti e ha tenuto i primi eventi:',
  'proposal.synced':
    '{synced, select, feeds {È già sincronizzato: è nell’elenco dei calendari del servizio.} host {È già sincronizzato: un organizzatore lo ha collegato.} community {È già sincronizzato: è già stato proposto e accettato.} other {Non è ancora sincronizzato.}}',
  'proposal.placeFrom':
    '{from, select, event {luogo indicato dall’evento} description {luogo trovato nella sua descrizione} calendar {luogo dalla città indicata per il calendario} online {online} other {luogo sconosciuto}}',
  'proposal.online': 'Online',
  'proposal.noPlace': 'nessun luogo',
  'proposal.notFound': 'Qui non c’è nessuna proposta «{id}».',
  'proposal.again': 'Proponi altro',

  'admin.title': 'Moderazione',
  'admin.signIn':
    'Accedi con il token di amministrazione come password (il nome utente non viene controllato). Senza, questa pagina non mostra nulla.',
  'admin.pendingHeading': 'In attesa di una decisione ({count, number})',
  'admin.none': 'Nulla in attesa.',
  'admin.accept': 'Accetta',
  'admin.reject': 'Rifiuta',
  'admin.remove': 'Rimuovi',
  'admin.reason': 'Motivo',
  'admin.reasonOptional': 'Motivo (facoltativo)',
  'admin.acceptedHeading': 'Calendari di community accettati ({count, number})',
  'admin.logHeading': 'Decisioni recenti',
  'admin.logColumn': '{column, select, at {Quando} actor {Chi} action {Cosa} proposal {Proposta} other {Motivo}}',
  'admin.actor':
    '{actor, select, cli {riga di comando} adminPage {pagina di amministrazione} adminApi {API di amministrazione} other {{actor}}}',
  'admin.action':
    '{action, select, accept {accettata} reject {rifiutata} remove {rimossa} propose {proposta} other {{action}}}',
  'admin.kind': '{kind, select, calendar {calendario} other {chiave da organizzatore}}',
  'admin.noLog': 'Ancora nessuna decisione.',
  'admin.crossOrigin': 'Rifiutato: questo modulo non è stato inviato da una pagina di questo sito.',
};
