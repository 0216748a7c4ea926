import type { FastifyInstance, FastifyReply } from 'fastify';
import { COUNTRIES, COUNTRY_INFO, type Country, isCountry } from '../../catalogue/countries.js';
import { ValidationError } from '../../catalogue/errors.js';
import type { AppContext } from '../../context.js';
import { search } from '../../query/engine.js';
import { parseSearchParams } from '../../query/params.js';
import { renderEventPage, renderNotFoundPage } from '../../render/html/event-page.js';
import { HTML_SECURITY_HEADERS, SITE_CSS } from '../../render/html/layout.js';
import { renderSearchPage } from '../../render/html/search-page.js';

const FORM_FIELDS = ['q', 'country', 'city', 'topic', 'format', 'who', 'seniority', 'near', 'org', 'limit'];

function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.status(status).headers(HTML_SECURITY_HEADERS).type('text/html; charset=utf-8').send(body);
}

/** The search page at / and /{country}, and every event's page at /{country}/events/<id>. */
export function registerPageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const baseUrl = ctx.config.baseUrl;

  app.get('/assets/site.css', (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=86400').send(SITE_CSS),
  );

  const searchPage = (reply: FastifyReply, country: Country, query: Record<string, unknown>) => {
    // Empty form fields mean "any": drop them before the shared grammar sees them.
    const form: Record<string, string> = {};
    for (const field of FORM_FIELDS) {
      const value = query[field];
      if (typeof value === 'string' && value.trim() !== '') form[field] = value;
    }
    const chosen = isCountry(form.country) ? form.country : country;
    try {
      const params = parseSearchParams({ ...form, country: chosen });
      const result = search(
        ctx.index,
        { ...params, countryExplicit: form.country !== undefined || country !== 'ch' },
        ctx.now(),
      );
      // An empty page says where the same search does find events.
      const elsewhere =
        result.total === 0
          ? COUNTRIES.filter((c) => c !== result.country).map((c) => ({
              country: c,
              total: search(ctx.index, { ...params, country: c, countryExplicit: true }, ctx.now()).total,
            }))
          : [];
      return sendHtml(reply, 200, renderSearchPage({ baseUrl, country: chosen, form, result, elsewhere }));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return sendHtml(reply, 422, renderSearchPage({ baseUrl, country: chosen, form, errors: error.errors }));
    }
  };

  app.get('/', (request, reply) => searchPage(reply, 'ch', request.query as Record<string, unknown>));

  app.get<{ Params: { country: string } }>('/:country', (request, reply) => {
    const { country } = request.params;
    if (!isCountry(country))
      return sendHtml(reply, 404, renderNotFoundPage(baseUrl, `There is no country “${country}” here.`));
    return searchPage(reply, country, request.query as Record<string, unknown>);
  });

  app.get<{ Params: { country: string; id: string } }>('/:country/events/:id', async (request, reply) => {
    const { country, id } = request.params;
    // Listed events come from the read index; cancelled and unlisted ones (their pages stay up) from the database.
    const event = isCountry(country) ? (ctx.index.get(id)?.event ?? (await ctx.events.findById(id))) : undefined;
    if (!event || event.country !== country) {
      const where = isCountry(country) ? ` in ${COUNTRY_INFO[country].name}` : '';
      return sendHtml(reply, 404, renderNotFoundPage(baseUrl, `There is no event “${id}”${where}.`));
    }
    // Unlisted and cancelled events keep their page: whoever has the link can see it (with a notice if cancelled).
    const alsoListedAt = ctx.index.get(event.id)?.alsoListedAt ?? [];
    return sendHtml(reply, 200, renderEventPage(event, { baseUrl, alsoListedAt }));
  });
}
