/**
 * Words that must never be read as a place name when scanning free text. GeoNames has villages and
 * city quarters called "Mitte", "Zentrum", "Rain", "Valley" or "Perl", and alternate-name lists add
 * more ("One" for Onex, "Bon" for Bonn, "Just" for Juist); in event titles and descriptions these are
 * ordinary words. Real cities that double as words ("Essen", "Zug", "Hof", "Forst") stay out of this
 * list: callers get them and can weigh the context.
 *
 * Entries are folded like the gazetteer's loose keys, so accents and case do not matter here.
 */
import { foldName } from './fold.js';

const WORDS = `
  a about after ai all am an and api app apps are as at auto bar be best big blue boot by call camp center
  city cloud code coffee conference congress data day days dev devops digital east edge end event events
  expo fair for forum free from future go green hack hall home hub in is it java just lab lake line live
  main meet meetup mobile near new next night north of on one online open or park party perl python rain
  react ring rust sales security south start station summit talk talks tech the to tour train up valley web
  week weekend west with work workshop world zone

  alle alt auf aus bad bei berg burg das der die dorf ein eine ende feld gratis haus heide heute hoch im
  insel ki kirche kloster konferenz lang markt mit mitte morgen nord ost platz see sommer sonntag spital
  stadt stein sud tag tage tal treff treffen und vor wald weil weiler welt woche wochenende zentrum zum zur
  januar februar märz april mai juni juli august september oktober november dezember

  au aux avec bon centre de des du en est et gratuit jour la le les ouest pour rue salon semaine sur une
  ville

  al alla con del della di dic e gratuito il monte nel per settimana su
`;

/** The stoplist keyed like the gazetteer's loose index (`foldName`). */
export const PHRASE_STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean).map(foldName));
