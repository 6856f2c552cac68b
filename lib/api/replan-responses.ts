import type { ReplacementDiff } from '@/lib/replan/replan-diff';
import type { ReplanProposal } from '@/lib/replan/replan-types';
import type { PlanResponse } from './schemas';

// What the replan endpoints and server actions return. They live with the API, not in
// lib/replan: the domain does not know the API's plan response, and keeping the diff out of
// replan-types leaves replan-diff -> replan-types one-way (no cycle).

/** A proposal as the API and the server action return it. */
export interface ReplanProposalResponse extends ReplanProposal {
  /** Per replacement, what the operator reviews: fields and edges before and after. */
  diff: ReplacementDiff[];
  /** The revision applying it made, once applied. */
  applied_revision: number | null;
  applied_at: string | null;
}

/** What applying a proposal returns: the new revision. */
export interface AppliedReplan {
  proposal_id: string;
  revision: number;
  content_hash: string;
  /** The replaced tasks whose replacements are now in the plan. */
  applied: string[];
  plan: PlanResponse;
}
