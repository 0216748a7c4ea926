import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../catalogue/errors.js';
import type { ServingContext } from '../../context.js';
import { translator } from '../../i18n/translator.js';
import { renderAdminPage, renderAdminRefusal } from '../../render/html/admin-page.js';
import { withLanguage } from '../../render/html/i18n.js';
import {
  acceptProposal,
  listProposals,
  recentDecisions,
  rejectProposal,
  removeProposal,
} from '../../use-cases/proposals.js';
import { acceptFormBodies } from '../form-body.js';
import { languageOf, sendHtml } from './pages.js';

/** Decisions shown in the page's log. */
const LOG_LENGTH = 20;

/** The password of an `Authorization: Basic` header (the user name is not checked), if it has one. */
function basicPassword(request: FastifyRequest): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/**
 * The browser's own sign-in: HTTP Basic with ADMIN_TOKEN as the password, compared in constant time. No token set:
 * the page does not exist (404, as the admin API). Nothing is kept server-side, no cookie is set.
 */
function signedIn(adminToken: string | undefined, request: FastifyRequest): boolean {
  if (!adminToken) throw new ServiceError('admin-disabled');
  const expected = Buffer.from(adminToken);
  const presented = Buffer.from(basicPassword(request) ?? '');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/**
 * Whether a form was posted from this site's own page. A browser sends its credentials with a form another site
 * posts here; Sec-Fetch-Site and Origin say where it came from, and each one sent must name this origin (a request
 * with neither is no browser's form, and is refused too).
 */
function sameOrigin(request: FastifyRequest, baseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (site === undefined && origin === undefined) return false;
  return (site === undefined || site === 'same-origin') && (origin === undefined || origin === new URL(baseUrl).origin);
}

async function adminPage(ctx: ServingContext, request: FastifyRequest, reply: FastifyReply, problem?: ServiceError) {
  const language = languageOf(request);
  const [waiting, accepted, log] = await Promise.all([
    listProposals(ctx, { state: 'waiting' }),
    listProposals(ctx, { state: 'accepted' }),
    recentDecisions(ctx, LOG_LENGTH),
  ]);
  const page = renderAdminPage({
    t: translator(language.lang),
    baseUrl: ctx.config.baseUrl,
    waiting,
    accepted: accepted.filter((p) => p.kind === 'calendar'),
    log,
    ...(problem ? { problem: problem.message } : {}),
  });
  return sendHtml(reply, problem?.status ?? 200, language, page);
}

type Decision = 'accept' | 'reject' | 'remove';

/** One decision from the page's buttons: on success back to the page (303), else the page with the refusal. */
async function decide(
  ctx: ServingContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  action: Decision,
) {
  const { id } = request.params;
  const reason = (request.body as Record<string, unknown> | undefined)?.reason;
  const given = typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
  try {
    if (action === 'accept') await acceptProposal(ctx, id, 'admin-page');
    // An empty reason goes on as empty: the use case says what it needs.
    else if (action === 'reject') await rejectProposal(ctx, id, given ?? '', 'admin-page');
    else await removeProposal(ctx, id, given, 'admin-page');
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    return adminPage(ctx, request, reply, error);
  }
  const language = languageOf(request);
  return reply.redirect(
    `${withLanguage('/admin', new URLSearchParams(), language.explicit ? language.lang : undefined)}#${id}`,
    303,
  );
}

/**
 * `/admin`: the moderation page behind ADMIN_TOKEN (HTTP Basic, the token as password), in four languages. Every
 * decision is a POST form of this page, refused (403) unless the browser says it was sent from this origin.
 */
export function registerAdminPageRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const { adminToken, baseUrl } = ctx.config;
  const refuse = (request: FastifyRequest, reply: FastifyReply, reason: 'sign-in' | 'cross-origin') => {
    const language = languageOf(request);
    if (reason === 'sign-in') reply.header('WWW-Authenticate', 'Basic realm="tech-events admin", charset="UTF-8"');
    const page = renderAdminRefusal({ t: translator(language.lang), baseUrl, reason });
    return sendHtml(reply.header('Cache-Control', 'no-store'), reason === 'sign-in' ? 401 : 403, language, page);
  };
  app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.addHook('onRequest', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!signedIn(adminToken, request)) return refuse(request, reply, 'sign-in');
      if (request.method === 'POST' && !sameOrigin(request, baseUrl)) return refuse(request, reply, 'cross-origin');
    });
    scope.get('/admin', (request, reply) => adminPage(ctx, request, reply));
    for (const action of ['accept', 'reject', 'remove'] as const) {
      scope.post<{ Params: { id: string } }>(`/admin/proposals/:id/${action}`, (request, reply) =>
        decide(ctx, request, reply, action),
      );
    }
  });
}
