import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, ValidationError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { chooseLanguage, type Language } from '../../i18n/languages.js';
import { translator } from '../../i18n/translator.js';
import { isCountry } from '../../places/countries.js';
import { PAGE_PARAMETERS, SCOPES, type Scope } from '../../query/params.js';
import { zoneOf } from '../../query/read-index.js';
import { ADD_CSS } from '../../render/html/add-page.js';
import { COVERAGE_CSS } from '../../render/html/coverage-banner.js';
import { renderEventPage, renderNotFoundPage } from '../../render/html/event-page.js';
import { FAVICON_ICO, FAVICON_SVG } from '../../render/html/favicon.js';
import { HTML_SECURITY_HEADERS, SITE_CSS } from '../../render/html/layout.js';
import { MAP_SVG } from '../../render/html/map.js';
import { ME_CSS } from '../../render/html/me-page.js';
import { type ResultOrder, renderSearchPage } from '../../render/html/search-page.js';
import { catalogueFreshness } from '../../use-cases/catalogue-status.js';
import { answerCoverage } from '../../use-cases/coverage.js';
import { getEvent, searchEvents } from '../../use-cases/read-events.js';
import { prefersHtml } from '../problem.js';
import { pathOf } from '../url-path.js';
import { sendEventCalendar } from './calendar.js';

type Query = Record<string, unknown>;

const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);

/**
 * The page's language: `?hl=`, else Accept-Language, else the one language `?lang=` filters events by, else English.
 * `lang` is the event-language filter on pages as in every output; `hl` names the page's own language.
 */
export function languageOf(request: FastifyRequest) {
  const query = request.query as Query;
  return chooseLanguage(query.hl, request.headers['accept-language'], query.lang);
}

/**
 * Pages differ by language. A URL with `?hl=` names its language and depends on nothing else; a URL without one
 * is negotiated on Accept-Language, so its response says `Vary: Accept-Language` and the response cache keeps one
 * body per negotiated language (see `negotiated` in caching.ts) — never one language's page for another's reader.
 */
export const PAGE_CONFIG = {
  negotiated: {
    header: 'accept-language',
    variant: (request: FastifyRequest): string | undefined => {
      const { lang, explicit } = languageOf(request);
      return explicit ? undefined : lang;
    },
  },
};

export function sendHtml(
  reply: FastifyReply,
  status: number,
  language: { lang: Language; explicit: boolean },
  body: string,
  headers: Record<string, string> = HTML_SECURITY_HEADERS,
): FastifyReply {
  reply.status(status).headers(headers).header('Content-Language', language.lang);
  if (!language.explicit) reply.header('Vary', 'Accept-Language');
  return reply.type('text/html; charset=utf-8').send(body);
}

/** The search form and its answer, for the home page (all countries) and each country's page. */
async function searchPage(ctx: ServingContext, request: FastifyRequest, reply: FastifyReply, country: Scope) {
  const query = request.query as Query;
  const language = languageOf(request);
  const t = translator(language.lang);
  // Empty form fields mean "any": drop them before the shared grammar sees them.
  const form: Record<string, string> = {};
  // The grammar's parameters a form or a link may carry: each is applied, or its problem shown, never ignored.
  for (const field of PAGE_PARAMETERS) {
    const value = query[field];
    if (typeof value === 'string' && value.trim() !== '') form[field] = value;
  }
  const order: ResultOrder | undefined =
    query.order === 'date' || query.order === 'relevance' ? query.order : undefined;
  // The menu: all three countries on the home page, the country on its own page, unless the form chose.
  const chosen: Scope = isScope(form.country) ? form.country : country;
  const now = ctx.now();
  const freshness = await catalogueFreshness(ctx);
  const page = {
    t,
    baseUrl: ctx.config.baseUrl,
    path: pathOf(request.url),
    country: chosen,
    now,
    form,
    ...(order ? { order } : {}),
    freshness: { sources: freshness, zone: zoneOf(chosen) },
  };
  try {
    // The text decides over the menu: a place or country named in q picks the country searched (see scopeOf).
    const result = await searchEvents(ctx, { ...form, country: chosen });
    const coverage = await answerCoverage(ctx, result);
    return sendHtml(reply, 200, language, renderSearchPage({ ...page, result, ...(coverage ? { coverage } : {}) }));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return sendHtml(reply, 422, language, renderSearchPage({ ...page, errors: error.errors }));
  }
}

/** An event's page, also when unlisted or cancelled; a 404 page names what was not found. */
async function eventPage(
  ctx: ServingContext,
  request: FastifyRequest<{ Params: { country: string; id: string } }>,
  reply: FastifyReply,
) {
  const baseUrl = ctx.config.baseUrl;
  const { country, id } = request.params;
  const language = languageOf(request);
  const t = translator(language.lang);
  try {
    // Unlisted and cancelled events keep their page: whoever has the link can see it (with a notice if cancelled).
    const { event, alsoListedAt } = await getEvent(ctx, { id, country });
    // How old its source's data is, when it comes from a feed (a host's push is as new as its last write).
    const sources = (await catalogueFreshness(ctx)).filter((f) => f.source === event.source);
    const freshness = { sources, zone: zoneOf(event.country) };
    return sendHtml(
      reply,
      200,
      language,
      renderEventPage(event, { t, baseUrl, now: ctx.now(), alsoListedAt, freshness }),
    );
  } catch (error) {
    // A page of its own for a browser; for any other client the problem, as every other error.
    if (!(error instanceof ServiceError) || error.code !== 'event-not-found') throw error;
    if (!prefersHtml(request.headers.accept)) throw error;
    const what = isCountry(country) ? t.t('notFound.event', { id, country }) : t.t('notFound.country', { country });
    return sendHtml(reply, 404, language, renderNotFoundPage({ t, baseUrl, path: pathOf(request.url), what }));
  }
}

/** The search page at / and /{country}, and every event's page at /{country}/events/<id>, in en, de, fr or it. */
export function registerPageRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const baseUrl = ctx.config.baseUrl;

  const asset = (path: string, type: string, body: string | Buffer) =>
    app.get(path, (_request, reply) => reply.type(type).header('Cache-Control', 'public, max-age=86400').send(body));
  asset('/assets/site.css', 'text/css; charset=utf-8', SITE_CSS + COVERAGE_CSS + ADD_CSS + ME_CSS);
  asset('/assets/map.svg', 'image/svg+xml', MAP_SVG);
  asset('/favicon.ico', 'image/x-icon', FAVICON_ICO);
  asset('/favicon.svg', 'image/svg+xml', FAVICON_SVG);

  app.get('/', { config: { ...PAGE_CONFIG, class: 'cacheable' } }, (request, reply) =>
    searchPage(ctx, request, reply, 'all'),
  );

  app.get<{ Params: { country: string } }>(
    '/:country',
    { config: { ...PAGE_CONFIG, class: 'cacheable' } },
    (request, reply) => {
      const { country } = request.params;
      if (isCountry(country)) return searchPage(ctx, request, reply, country);
      if (!prefersHtml(request.headers.accept)) {
        throw new ServiceError('not-found', `Nothing at ${request.method} ${pathOf(request.url)}.`);
      }
      const language = languageOf(request);
      const t = translator(language.lang);
      const what = t.t('notFound.country', { country });
      return sendHtml(reply, 404, language, renderNotFoundPage({ t, baseUrl, path: pathOf(request.url), what }));
    },
  );

  app.get<{ Params: { country: string; id: string } }>(
    '/:country/events/:id',
    { config: { ...PAGE_CONFIG, class: 'cacheable', maxAge: 'page' } },
    (request, reply) =>
      request.params.id.endsWith('.ics')
        ? sendEventCalendar(ctx, request.params.country, request.params.id.slice(0, -4), reply)
        : eventPage(ctx, request, reply),
  );
}
