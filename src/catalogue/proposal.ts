/** Kinds of proposal: a calendar to sync, or a request for a host key. */
export const PROPOSAL_KINDS = ['calendar', 'key'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/**
 * `reading`: its calendar is being read for the preview; `waiting`: for the operator; then `accepted`, `rejected`
 * (with a reason) or `removed` (an accepted calendar taken out again, its upcoming events retired).
 */
export const PROPOSAL_STATES = ['reading', 'waiting', 'accepted', 'rejected', 'removed'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];
