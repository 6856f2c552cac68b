// Which earlier revision the review page compares the head with. Like GitHub's "changes
// since your last review": a reviewer coming back wants what changed since they last looked,
// not everything since revision 1. Pure, so the rule is tested without a page.

/** What one person has done with a plan's earlier revisions (each strictly before the head), and the head. */
export interface ReviewHistory {
  head: number;
  /** The newest earlier revision this person approved, requested changes to or rejected. */
  lastDecided: number | null;
  /** The newest earlier revision in which this person marked any task viewed. */
  lastViewed: number | null;
  /** The newest earlier revision anyone approved. */
  lastApproved: number | null;
}

/** Why this base: the person's own decision or viewed marks, the last approval, the start, or their choice in the URL. */
export type ReviewBaseReason = 'your_review' | 'your_view' | 'approved' | 'start' | 'chosen';

export interface ReviewBase {
  revision: number;
  reason: ReviewBaseReason;
}

/** The URL parameter's value for the last approved revision (a number names a revision). */
export const APPROVED_BASE = 'approved';

/** Your last decision, else your last viewed marks, else the last approval, else revision 1. */
export function defaultReviewBase(history: ReviewHistory): ReviewBase {
  if (history.head <= 1) return { revision: history.head, reason: 'start' };
  if (history.lastDecided !== null) return { revision: history.lastDecided, reason: 'your_review' };
  if (history.lastViewed !== null) return { revision: history.lastViewed, reason: 'your_view' };
  if (history.lastApproved !== null) return { revision: history.lastApproved, reason: 'approved' };
  return { revision: 1, reason: 'start' };
}

export interface ChosenBase {
  base: ReviewBase;
  /** Why the `base` parameter was not used, said to the reader; null when it was used or absent. */
  problem: string | null;
}

/**
 * The base `?base=` asks for (a revision before the head, or "approved"), or the default with
 * the reason the value was refused. A refused value never fails the page.
 */
export function chooseReviewBase(param: string | string[] | undefined, history: ReviewHistory): ChosenBase {
  const fallback = defaultReviewBase(history);
  if (param === undefined || param === '') return { base: fallback, problem: null };
  const instead = `Showing ${describeBase(fallback, history.head, { lowercase: true })} instead.`;
  if (Array.isArray(param)) return { base: fallback, problem: `The link names ${param.length} base revisions; name one. ${instead}` };
  const shown = param.length > 40 ? `${param.slice(0, 39)}…` : param;
  if (history.head <= 1) return { base: fallback, problem: `Revision 1 is the plan's only revision, so there is nothing earlier to compare it with.` };
  if (param === APPROVED_BASE) {
    if (history.lastApproved === null) return { base: fallback, problem: `No revision before ${history.head} was approved, so there is no approved revision to compare with. ${instead}` };
    return { base: { revision: history.lastApproved, reason: 'approved' }, problem: null };
  }
  const revision = /^[1-9][0-9]{0,8}$/.test(param) ? Number(param) : null;
  if (revision === null || revision >= history.head) {
    const range = history.head === 2 ? 'revision 1' : `a revision from 1 to ${history.head - 1}`;
    return { base: fallback, problem: `"${shown}" is not a revision to compare revision ${history.head} with: choose ${range}, or "${APPROVED_BASE}". ${instead}` };
  }
  return { base: { revision, reason: 'chosen' }, problem: null };
}

/** The diff's heading: what the head is compared with, and why that revision. */
export function describeBase(base: ReviewBase, head: number, { lowercase = false } = {}): string {
  const text =
    base.revision >= head
      ? `Revision ${head}: every task`
      : base.reason === 'your_review'
        ? `Changes since your last review (revision ${base.revision})`
        : base.reason === 'your_view'
          ? `Changes since you last viewed it (revision ${base.revision})`
          : base.reason === 'approved'
            ? `Changes since approved revision ${base.revision}`
            : `Changes since revision ${base.revision}`;
  return lowercase ? `${text[0].toLowerCase()}${text.slice(1)}` : text;
}

/** The default's entry in the base picker, e.g. "Since your last review (revision 3)". */
export function defaultBaseLabel(history: ReviewHistory): string {
  const base = defaultReviewBase(history);
  const since =
    base.reason === 'your_review'
      ? 'your last review'
      : base.reason === 'your_view'
        ? 'you last viewed it'
        : base.reason === 'approved'
          ? 'the last approval'
          : 'the start';
  return `Since ${since} (revision ${base.revision})`;
}
