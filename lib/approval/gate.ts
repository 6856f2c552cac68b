import type { PlanStatus } from './plan-status';

// The approval gate's rules as pure functions of what the database holds, so the server
// and the review screen (which greys out what would be refused) agree on every answer.

export const DECISIONS = ['approved', 'changes_requested', 'rejected'] as const;
export type Decision = (typeof DECISIONS)[number];

export type RefusalCode = 'invalid_state' | 'stale' | 'has_errors' | 'four_eyes' | 'already_decided' | 'not_a_person';

export interface Refusal {
  code: RefusalCode;
  message: string;
}

export interface GateState {
  status: PlanStatus;
  headRevision: number;
  headContentHash: string;
  /**
   * The newest revision whose content changed. Revisions after it moved only nodes, so a
   * claim on any revision from it to the head is a claim on the same content.
   */
  contentRevision: number;
  /** Validation errors (not warnings) on the head revision. */
  errorCount: number;
  /**
   * Who wrote any revision since the last revision that was fully approved (or since the
   * start), the head's author included. Partial or voided approvals do not count.
   */
  recentAuthors: readonly string[];
  /** Who changed a registry resource the plan routes to since it was last fully approved. */
  resourceEditors: readonly string[];
  /** Who submitted the head revision for review, while it is in review. */
  submittedBy: string | null;
  /**
   * Accounts tied by creation to someone who shaped this revision (an author, a resource
   * editor, the submitter): made by them, or their maker. Four-eyes counts them as that person.
   */
  accountTies: ReadonlyMap<string, AccountTie>;
  /** Reviewers whose approval of the head revision still stands. */
  approvedBy: readonly string[];
  requiredApprovals: number;
}

/** How an account is tied to a person by who created which account (an admin's sock puppet). */
export interface AccountTie {
  /** The person who shaped what is being decided. */
  person: string;
  /** `created_by`: the account was made by `person`; `creator_of`: it made `person`'s account. */
  relation: 'created_by' | 'creator_of';
  /** Made directly, not through an account in between. */
  direct: boolean;
}

/** The tie in words, for a refusal addressed to the tied account. */
export function describeTie(tie: AccountTie): string {
  if (tie.relation === 'created_by') return tie.direct ? `your account was created by ${tie.person}` : `your account was created by an account ${tie.person} created`;
  return tie.direct ? `you created the account of ${tie.person}` : `an account you created made the account of ${tie.person}`;
}

export interface Claim {
  revision: number;
  contentHash: string;
}

function stale(state: GateState, claim: Claim, doing: 'reviewed' | 'submitted'): Refusal | null {
  const again = doing === 'reviewed' ? 'review' : 'submit';
  if (claim.revision < state.contentRevision || claim.revision > state.headRevision) {
    return {
      code: 'stale',
      message: `You ${doing} revision ${claim.revision}, but the plan is now at revision ${state.headRevision}. Reload and ${again} the latest revision.`,
    };
  }
  if (claim.contentHash !== state.headContentHash) {
    return { code: 'stale', message: `The content hash you ${doing} does not match revision ${state.headRevision}. Reload and ${again} again.` };
  }
  return null;
}

function errors(state: GateState, doing: string): Refusal | null {
  if (state.errorCount === 0) return null;
  const noun = state.errorCount === 1 ? 'error' : 'errors';
  return { code: 'has_errors', message: `The plan has ${state.errorCount} validation ${noun}; fix them before it can be ${doing}.` };
}

export function checkSubmit(state: GateState, claim?: Claim): Refusal | null {
  if (state.status === 'in_review') return { code: 'invalid_state', message: 'The plan is already in review.' };
  if (state.status === 'approved') return { code: 'invalid_state', message: 'The plan is already approved.' };
  if (state.status === 'rejected') {
    return { code: 'invalid_state', message: 'This revision was rejected; save a new revision to submit again.' };
  }
  return (claim && stale(state, claim, 'submitted')) ?? errors(state, 'submitted');
}

export interface Reviewer {
  username: string;
  /** A service account (automation, PLANGATE_ADMIN_TOKEN): it may never decide. */
  service: boolean;
}

export function checkDecision(state: GateState, decision: Decision, reviewer: Reviewer, claim: Claim): Refusal | null {
  if (reviewer.service) {
    return { code: 'not_a_person', message: `${reviewer.username} is a service account; decisions on a plan need a named person.` };
  }
  const isStale = stale(state, claim, 'reviewed');
  if (isStale) return isStale;
  if (state.status !== 'in_review') {
    return { code: 'invalid_state', message: `Only a plan in review can be decided on; this one is ${state.status.replace('_', ' ')}.` };
  }
  if (decision !== 'approved') return null;
  if (state.recentAuthors.includes(reviewer.username)) {
    return { code: 'four_eyes', message: `You edited this plan since its last approval; someone else must approve revision ${state.headRevision}.` };
  }
  if (state.resourceEditors.includes(reviewer.username)) {
    return {
      code: 'four_eyes',
      message: `You changed a registry resource this plan routes to since its last approval; someone else must approve revision ${state.headRevision}.`,
    };
  }
  if (reviewer.username === state.submittedBy) {
    return { code: 'four_eyes', message: `You submitted revision ${state.headRevision} for review; someone else must approve it.` };
  }
  const tie = state.accountTies.get(reviewer.username);
  if (tie) {
    const describe = describeTie(tie);
    return {
      code: 'four_eyes',
      message: `${describe[0].toUpperCase()}${describe.slice(1)}, who shaped this revision, so you count as them; someone not tied to ${tie.person} must approve revision ${state.headRevision}.`,
    };
  }
  if (state.approvedBy.includes(reviewer.username)) return { code: 'already_decided', message: 'You have already approved this revision.' };
  return errors(state, 'approved');
}

/** Where a decision leaves the plan. */
export function statusAfter(decision: Decision, approvalsAfter: number, requiredApprovals: number): PlanStatus {
  if (decision === 'approved') return approvalsAfter >= requiredApprovals ? 'approved' : 'in_review';
  return decision;
}
