/**
 * Words of no search meaning in a prompt (en/de/fr/it): function words, greetings, the words of asking ("ich suche"),
 * of one's situation ("wohne"), vague praise, wishes ("am liebsten") and words every event shares ("event", "tech").
 * Facets are read first, so a word here only stops a leftover from being searched as full text and quoted as matched.
 */

const ENGLISH =
  // articles, determiners, pronouns
  'a an the this that these those some any all each every both either neither other others another such same ' +
  'i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his she her hers they ' +
  'them their theirs one ones ' +
  // auxiliaries and modals, contractions split at their apostrophe ("I'm" → "I", "m"; "don't" → "don", "t")
  'am is are was were be been being do does did doing done have has had having get gets got getting ' +
  'can could will would shall should may might must ll ve re don doesn didn isn aren wasn weren haven hasn ' +
  'couldn wouldn shouldn won ' +
  // question words, connectives, adverbs
  'what which who whom whose where when why how whatever there here then than so if and or but nor also too just ' +
  'only even still yet already really very quite rather maybe perhaps probably currently now soon else ' +
  // prepositions
  'of on at to for from with about into onto by near around over under between within without via per across ' +
  'along towards toward ' +
  // greetings, politeness
  'please pls thanks thank thx cheers hi hello hey dear ' +
  // vague things and people
  'something anything nothing everything someone anyone everyone somebody anybody stuff thing things people folks ' +
  'guys everybody team teams colleagues friends community communities ' +
  // asking, wanting, attending, learning, recommending
  'looking look looks search searching seek seeking find finding found want wants wanted wanting need needs ' +
  'needing like likes liked love interested interest interests keen hoping hope planning plan plans trying try ' +
  'attend attending go going goes join joining participate participating take taking part meet meeting meetings ' +
  'recommend recommended recommendation recommendations suggest suggestion suggestions advice advise tip tips idea ' +
  'ideas know tell show give let help learn learning happening happens coming up check worth fun list overview ' +
  'kind kinds sort sorts type types option options heading travelling traveling coming ' +
  // the person's own situation (see home.ts)
  'live lives living lived based located staying visiting visit working from ' +
  // vague praise and time
  'good great best better nice cool interesting awesome decent worthwhile relevant suitable upcoming next new latest ' +
  // words every event shares, and time words a date window did not take ("this year")
  'event events tech technology technologies developer developers dev devs engineer engineers year years month ' +
  'months week weeks today ' +
  // a wish (wishes.ts reads the language wished for): "ideally in English", "if possible held in German"
  'ideally preferably possibly possible prefer preferred preference held spoken language';

const GERMAN =
  'ich mich mir mein meine meinen meinem meiner meines du dich dir dein deine deinen deinem er sie es ihn ihm ihr ' +
  'ihre ihren ihrem wir uns unser unsere unseren unserem euch euer eure man jemand niemand ' +
  'bin bist ist sind seid war waren gewesen sein habe hab hast hat haben habt hatte hatten hätte hätten werde ' +
  'wirst wird werden würde würdest würden kann kannst können könnt könnte könntest könnten muss musst müssen soll ' +
  'sollte sollten will willst wollen möchte möchtest möchten mag magst mögen darf dürfen gibt gibts geben ' +
  'der die das den dem des ein eine einen einem einer eines kein keine keinen keinem dieser diese dieses diesen ' +
  'diesem welche welcher welches welchen welchem ' +
  'und oder aber auch noch schon nur sehr mal doch ja nein vielleicht bitte danke dank hallo servus grüezi moin ' +
  'tschüss liebe lieber ' +
  'an am auf aus bei mit nach von vom zu zum zur für fur über uber um rund gegen ohne unter zwischen durch beim ins ' +
  'was wer wen wem wo wohin woher wann wie warum weshalb etwas nichts alles irgendwas irgendwelche irgendein ' +
  'irgendeine paar einige viele mehr ' +
  'suche suchst sucht suchen gesucht finde findet finden empfehlen empfiehlst empfehlung empfehlungen tipp tipps ' +
  'vorschlag vorschläge idee ideen kennen kennst kennt wissen weißt weiss sagen sag sagt zeigen zeig zeigt ' +
  'teilnehmen mitmachen gehen hingehen besuchen interessiere interessiert interessieren lernen läuft los geht ' +
  'stattfinden findet statt lohnt lohnen art überblick übersicht liste infos lust ' +
  'wohne wohnen wohnhaft lebe leben komme kommen arbeite arbeiten ' +
  'gut gute guten gutes beste besten tolle tollen interessant interessante interessanten spannend spannende ' +
  'passend passende neue neuen nächste nächsten kommende kommenden bald demnächst gerade jetzt aktuell aktuelle ' +
  'momentan derzeit hier dort da dann also denn ' +
  'veranstaltung veranstaltungen leute personen menschen kollegen entwickler entwicklerinnen technologie jahr ' +
  'jahres jahre monat monats woche wochen heute ' +
  'liebsten gerne gern vorzugsweise bevorzugt bevorzuge idealerweise möglichst möglich wenn gehalten sprache';

const FRENCH =
  'je me moi mon ma mes tu te toi ton ta tes il ils elle elles on nous vous lui leur leurs se notre nos votre vos ' +
  'suis es est sommes êtes sont étais était être ai as a avons avez ont avoir ' +
  'fais fait faisons faites faire peux peut pouvons pouvez peuvent pourrais pourrait pourriez pourrions veux veut ' +
  'voulons voulez voudrais voudrait voudrions aimerais aimerait aimerions souhaite souhaitons souhaiterais dois ' +
  'doit devrais devrait faut ' +
  'le la les un une des du de au aux ce cet cette ces ça cela ' +
  'et ou mais aussi donc alors très bien merci bonjour salut coucou svp stp plaît plait ' +
  'en dans sur pour par avec chez vers sans sous entre ' +
  'que qu qui quoi quel quelle quels quelles où quand comment pourquoi combien ' +
  'quelque quelques chose choses rien tout tous toutes autre autres ' +
  'cherche cherches cherchons cherchez chercher recherche trouver trouve trouvons conseiller conseille conseils ' +
  'conseil recommander recommandez recommandation recommandations suggérer suggestion idée idées savoir sais ' +
  'connaître connais connaissez montrer montrez aller vais participer assister rencontrer apprendre intéresse ' +
  'intéressé intéressée intéressés intéressées comme genre sorte sortes passe venir vaut liste envie besoin ' +
  'habite habites habitons vis vivons réside viens venons travaille ' +
  'bon bonne bons bonnes meilleur meilleure meilleurs meilleures intéressant intéressants prochain prochaine ' +
  'prochains prochaines nouveau nouvelle nouveaux actuellement bientôt maintenant ici là voici voilà ' +
  'événement événements gens personnes communauté développeur développeurs année années mois semaine semaines ' +
  'préférence préférablement idéalement possible si préfère préférerais langue';

const ITALIAN =
  'io mi me mio mia miei mie tu ti te tuo tua tuoi tue lui lei ci noi ce ve vi voi loro si suo sua suoi sue ' +
  'nostro nostra nostri nostre vostro vostra ' +
  'sono sei è siamo siete ho hai ha abbiamo avete hanno ero era eravamo essere avere stato ' +
  'sto stai sta stiamo stanno posso puoi può possiamo potete possono potrei potresti potreste voglio vuoi vuole ' +
  'vogliamo volete vorrei vorresti vorremmo devo deve dobbiamo dovrei ' +
  // (not "ai", "to the": it is how English and German write AI)
  'il lo la i gli le un uno una del dello della dell dei degli delle al allo alla all agli alle dal dallo dalla ' +
  'dall dai dagli dalle nel nello nella nell nei negli nelle sul sullo sulla sull sui sugli sulle col coi quest ' +
  'quell ' +
  'e ed o oppure ma anche quindi molto bene grazie ciao buongiorno buonasera salve favore ' +
  'ad in su per con da di tra fra verso senza presso ' +
  'che chi cosa quale quali dove quando come perché quanto quanti quante ' +
  'qualche qualcosa qualcuno niente nulla tutto tutti tutte alcuni alcune altro altri ' +
  'cerco cerchi cerca cerchiamo cercate cercando cercare trovare trovo consigliare consigli consiglio consigliate ' +
  'raccomandare suggerire suggerimenti idea idee sapere so sai conoscere conosci mostrare andare vado partecipare ' +
  'incontrare imparare interessa interessato interessata interessati succede tipo genere elenco lista vale ' +
  'conviene trovo troviamo voglia bisogno ' +
  'abito abitiamo vivo viviamo risiedo vengo veniamo lavoro ' +
  'buono buona buoni buone migliore migliori interessante interessanti prossimo prossima prossimi prossime nuovo ' +
  'nuova nuovi adesso ora presto qui qua là ' +
  'evento eventi gente persone comunità sviluppatore sviluppatori anno anni mese mesi settimana settimane oggi ' +
  'preferibilmente idealmente possibilmente possibile preferenza preferisco preferirei lingua se';

/** Folded the way a word's `lower` is compared (accents kept: "è" and "e" are both listed where both occur). */
const FILLER: ReadonlySet<string> = new Set(
  [ENGLISH, GERMAN, FRENCH, ITALIAN].flatMap((list) =>
    list.split(' ').flatMap((w) => [w, w.normalize('NFD').replace(/\p{M}/gu, '')]),
  ),
);

/** Filler: listed, a single letter, or hyphenated filler only ("est-ce"). */
export function isFiller(lower: string): boolean {
  if (lower.length < 2 || FILLER.has(lower)) return true;
  if (!lower.includes('-')) return false;
  return lower.split('-').every((part) => part.length < 2 || FILLER.has(part));
}

/** After "I'm", "ich bin", "je suis": a request ("I'm looking for…"), not the person's situation ("I'm a student…"). */
export const REQUEST_WORDS: ReadonlySet<string> = new Set(
  (
    'looking searching seeking hoping planning trying interested keen going wondering thinking curious after ' +
    'suche sucht suchen gesucht interessiere interessiert möchte würde will ' +
    'recherche cherche intéressé intéressée intéressés intéressées ' +
    'ricerca cerca cerco cercando interessato interessata interessati'
  ).split(' '),
);
