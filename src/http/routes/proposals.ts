import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServingContext } from '../../context.js';
import {
  acceptProposal,
  listProposals,
  type Proposed,
  proposalStatus,
  proposeCalendar,
  rejectProposal,
  removeProposal,
  requestKey,
  showProposal,
} from '../../use-cases/proposals.js';
import { proposalRateLimit } from '../limits.js';
import { adminOnly } from './admin.js';

/** A new proposal: 202 with its status URL as Location; the same calendar proposed before: 200 with that one. */
function answerProposed(reply: FastifyReply, { proposal, created }: Proposed) {
  if (created) reply.status(202).header('Location', proposal.statusUrl);
  return proposal;
}

/**
 * The keyless proposals (a calendar to sync, a host key asked for) and their status URL, which may show a key once:
 * never cached, never stored by a browser.
 */
export function registerProposalRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const limited = { config: { rateLimit: proposalRateLimit(ctx.config) } };
  app.post('/api/calendars/proposals', limited, async (request, reply) =>
    answerProposed(reply, await proposeCalendar(ctx, request.body ?? {}, { address: request.ip })),
  );

  app.post('/api/keys/requests', limited, async (request, reply) =>
    answerProposed(reply, await requestKey(ctx, request.body ?? {}, { address: request.ip })),
  );

  app.get<{ Params: { id: string } }>('/api/proposals/:id', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    // A HEAD answer has no body: the key stays for the visit that can read it.
    return proposalStatus(ctx, request.params.id, { showKey: request.method !== 'HEAD' });
  });
}

/** The operator's side over HTTP (ADMIN_TOKEN): the queue, each proposal with its log, and the decisions. */
export function registerProposalAdminRoutes(app: FastifyInstance, ctx: ServingContext): void {
  const admin = adminOnly(ctx.config.adminToken);
  type Decision = { Params: { id: string }; Body: { reason?: unknown } | undefined };

  app.get<{ Querystring: Record<string, string> }>('/api/admin/proposals', admin, async (request) => ({
    proposals: await listProposals(ctx, request.query),
  }));
  app.get<Decision>('/api/admin/proposals/:id', admin, async (request) => showProposal(ctx, request.params.id));
  app.post<Decision>('/api/admin/proposals/:id/accept', admin, async (request) =>
    acceptProposal(ctx, request.params.id, 'admin-api'),
  );
  // The use case checks the reason, whatever JSON gave.
  app.post<Decision>('/api/admin/proposals/:id/reject', admin, async (request) =>
    rejectProposal(ctx, request.params.id, request.body?.reason as string, 'admin-api'),
  );
  app.post<Decision>('/api/admin/proposals/:id/remove', admin, async (request) =>
    removeProposal(ctx, request.params.id, request.body?.reason as string | undefined, 'admin-api'),
  );
}
