import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, ValidationError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { type AddPageInput, renderAddPage } from '../../render/html/add-page.js';
import { renderNotFoundPage } from '../../render/html/event-page.js';
import { withLanguage } from '../../render/html/i18n.js';
import { renderProposalPage } from '../../render/html/proposal-page.js';
import { proposalStatus, proposeCalendar, requestKey } from '../../use-cases/proposals.js';
import { acceptFormBodies } from '../form-body.js';
import { proposalRateLimit } from '../limits.js';
import { languageOf, PAGE_CONFIG, sendHtml } from './pages.js';

/** The fields each form sends; an empty one means "not given", as in the search form. */
const FORMS = {
  calendar: ['url', 'city', 'country', 'name'],
  key: ['organisation', 'country', 'plans', 'website'],
} as const;
type Form = keyof typeof FORMS;

function fieldsOf(body: unknown, form: Form): Record<string, string> {
  const sent = (body ?? {}) as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const name of FORMS[form]) {
    const value = sent[name];
    if (typeof value === 'string' && value.trim() !== '') fields[name] = value;
  }
  return fields;
}

/** POST /add: one of the two forms; 303 to its status page, or the form again with what to mend. */
async function propose(ctx: ServingContext, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request);
  const t = translator(language.lang);
  const form: Form = (request.body as Record<string, unknown> | undefined)?.form === 'key' ? 'key' : 'calendar';
  const fields = fieldsOf(request.body, form);
  const client = { address: request.ip };
  const page: AddPageInput = { t, baseUrl: ctx.config.baseUrl };
  try {
    const { proposal } =
      form === 'key' ? await requestKey(ctx, fields, client) : await proposeCalendar(ctx, fields, client);
    const query = new URLSearchParams();
    return reply.redirect(withLanguage(`/add/${proposal.id}`, query, language.explicit ? t.lang : undefined), 303);
  } catch (error) {
    if (error instanceof ValidationError) {
      return sendHtml(reply, 422, language, renderAddPage({ ...page, sent: { form, fields, errors: error.errors } }));
    }
    if (error instanceof ServiceError && error.code === 'proposals-full') return notNow(ctx, request, reply, error);
    throw error;
  }
}

/**
 * A proposal not taken now — too many from this address this hour (429, from the route's rate limit), or too many
 * waiting for the operator (503) — answers the form again as sent, saying when to try again.
 */
function notNow(ctx: ServingContext, request: FastifyRequest, reply: FastifyReply, error: ServiceError) {
  const language = languageOf(request);
  const form: Form = (request.body as Record<string, unknown> | undefined)?.form === 'key' ? 'key' : 'calendar';
  const seconds = typeof error.extra.retryAfter === 'number' ? error.extra.retryAfter : 60;
  reply.header('Retry-After', String(seconds));
  const page: AddPageInput = {
    t: translator(language.lang),
    baseUrl: ctx.config.baseUrl,
    sent: { form, fields: fieldsOf(request.body, form), errors: [] },
    notNow: error.code === 'rate-limited' ? { limited: Math.max(1, Math.ceil(seconds / 60)) } : { full: true },
  };
  return sendHtml(reply, error.status, language, renderAddPage(page));
}

/** GET /add/<id>: the proposal as its proposer sees it; never kept by any cache (an accepted key shows on it once). */
async function statusPage(
  ctx: ServingContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const language = languageOf(request);
  const t = translator(language.lang);
  const baseUrl = ctx.config.baseUrl;
  reply.header('Cache-Control', 'no-store');
  try {
    const view = await proposalStatus(ctx, request.params.id);
    return sendHtml(reply, 200, language, renderProposalPage({ t, baseUrl, view }));
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 404) throw error;
    const what = t.t('proposal.notFound', { id: request.params.id });
    return sendHtml(reply, 404, language, renderNotFoundPage({ t, baseUrl, path: `/add/${request.params.id}`, what }));
  }
}

/**
 * `/add` (the two forms: a calendar to propose, a host key to ask for) and `/add/<id>` (a proposal's status), in
 * four languages. Its own scope takes the forms' urlencoded bodies; every other route keeps to JSON.
 */
export function registerAddRoutes(app: FastifyInstance, ctx: ServingContext): void {
  app.register(async (scope) => {
    acceptFormBodies(scope);
    // The rate limit refuses before the handler: its refusal is the form again too, not a problem document.
    scope.setErrorHandler((error, request, reply) => {
      if (request.method === 'POST' && error instanceof ServiceError && error.code === 'rate-limited')
        return notNow(ctx, request, reply, error);
      throw error;
    });
    scope.get('/add', { config: PAGE_CONFIG }, (request, reply) => {
      const language = languageOf(request);
      const t = translator(language.lang);
      return sendHtml(reply, 200, language, renderAddPage({ t, baseUrl: ctx.config.baseUrl }));
    });
    // Limited per address and hour as the JSON API's proposal routes are (RATE_LIMIT_PROPOSALS_PER_HOUR), once the
    // form is read: its refusal shows the form again as sent.
    const limit = proposalRateLimit(ctx.config);
    const rateLimit = limit && { ...limit, hook: 'preHandler' as const };
    scope.post('/add', { config: { rateLimit } }, (request, reply) => propose(ctx, request, reply));
    scope.get<{ Params: { id: string } }>(
      '/add/:id',
      { config: PAGE_CONFIG, exposeHeadRoute: false },
      (request, reply) => statusPage(ctx, request, reply),
    );
    // A HEAD (a link checker's) must not be the one visit that shows an accepted key, unseen: it reads nothing.
    scope.head('/add/:id', (request, reply) =>
      sendHtml(reply.header('Cache-Control', 'no-store'), 200, languageOf(request), ''),
    );
  });
}
