import { ServiceError } from '../catalogue/errors.js';
import type { AppContext } from '../context.js';
import { toCapacityView, toDecisionView, toEventRsvpsView } from '../render/rsvp-json.js';
import { linkCalendarForKey, listCalendarsByKey, unlinkCalendarById } from '../use-cases/calendars.js';
import { issueKey, listKeys, revokeKey, rotateKey } from '../use-cases/keys.js';
import { acceptProposal, listProposals, rejectProposal, removeProposal, showProposal } from '../use-cases/proposals.js';
import { decideRsvp, eventRsvps, setCapacity } from '../use-cases/rsvp.js';
import type { ControlRequest, ControlResults } from './protocol.js';

/** A command other than `sync`, whose progress the CLI shows and the service does not. */
export type OperatorRequest = Exclude<ControlRequest, { command: 'sync' }>;

/** Each operator command's use case: the CLI runs it on a database of its own, the service when asked to. */
export async function runCommand(
  ctx: AppContext,
  request: OperatorRequest,
): Promise<ControlResults[OperatorRequest['command']]> {
  switch (request.command) {
    case 'keys.create':
      return issueKey(ctx, { name: request.name, country: request.country });
    case 'keys.list':
      return listKeys(ctx);
    case 'keys.revoke':
      return revokeKey(ctx, request.id);
    case 'keys.rotate':
      return rotateKey(ctx, request.id, { graceSeconds: request.graceSeconds });
    case 'calendars.link':
      return linkCalendarForKey(ctx, request.keyId, request.url);
    case 'calendars.list':
      return listCalendarsByKey(ctx, request.keyId);
    case 'calendars.unlink':
      return unlinkCalendarById(ctx, request.id);
    case 'proposals.list':
      return listProposals(ctx, request.filter);
    case 'proposals.show':
      return showProposal(ctx, request.id);
    case 'proposals.accept':
      return acceptProposal(ctx, request.id, 'cli');
    case 'proposals.reject':
      return rejectProposal(ctx, request.id, request.reason, 'cli');
    case 'proposals.remove':
      return removeProposal(ctx, request.id, request.reason, 'cli');
    case 'rsvps.list':
      return toEventRsvpsView(await eventRsvps(ctx, 'operator', { id: request.id }), ctx.config.baseUrl);
    case 'rsvps.decide':
      return toDecisionView(
        await decideRsvp(ctx, 'operator', { id: request.id, handle: request.handle, decision: request.decision }),
      );
    case 'rsvps.capacity':
      return toCapacityView(
        await setCapacity(ctx, 'operator', { id: request.id, capacity: request.capacity }),
        ctx.config.baseUrl,
      );
    default:
      throw new ServiceError('bad-request', `Unknown command "${(request as { command: unknown }).command}".`);
  }
}
