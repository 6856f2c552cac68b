import 'server-only';
import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { ReviewRequest } from '@/lib/api/gate-schemas';
import { ROLES, hasRole, roleOf } from '@/lib/auth/roles';
import type { Database } from '../platform/db/client';
import { planReviews, plans, reviewRequests, user } from '../platform/db/schema';
import { AppError } from '../platform/errors';
import { accountTies } from '../auth/account-ties';

// Reviewers requested by name when a plan is submitted. A request names someone who could
// actually decide: a person (service accounts never decide) holding the approver role or
// above, and never the submitter, whom four-eyes forbids to approve what they submitted.

const DECIDING_ROLES = ROLES.filter((role) => hasRole(role, 'approver'));

export interface ReviewerCandidate {
  username: string;
  role: string;
}

/** Everyone a submitter may ask for a review, by name; `except` (the submitter) left out. */
export async function reviewerCandidates(db: Database, except?: string): Promise<ReviewerCandidate[]> {
  const rows = await db
    .select({ username: user.username, name: user.name, role: user.role })
    .from(user)
    .where(and(eq(user.service, false), inArray(user.role, DECIDING_ROLES)))
    .orderBy(asc(user.username));
  // Accounts tied by creation to the submitter could not approve either (four-eyes counts them as one).
  const ties = except ? await accountTies(db, [except]) : new Map();
  return rows.map((row) => ({ username: row.username ?? row.name, role: roleOf(row.role) })).filter((row) => row.username !== except && !ties.has(row.username));
}

/**
 * Who reviewed `planId` before, on any revision (asked by name, or who decided on it), and
 * may still be asked by `submitter`: "Re-request review" asks them again. Sorted by name.
 */
export async function previousReviewers(db: Database, planId: string, submitter: string): Promise<string[]> {
  const asked = await db.selectDistinct({ name: reviewRequests.reviewer }).from(reviewRequests).where(eq(reviewRequests.planId, planId));
  const decided = await db.selectDistinct({ name: planReviews.reviewer }).from(planReviews).where(eq(planReviews.planId, planId));
  const names = new Set([...asked, ...decided].map((row) => row.name));
  if (!names.size) return [];
  return (await reviewerCandidates(db, submitter)).map((candidate) => candidate.username).filter((name) => names.has(name));
}

/** Refuses the whole list, naming each reviewer who cannot be asked, before anything is written. */
export async function checkRequestedReviewers(db: Database, names: string[], submitter: string): Promise<void> {
  if (!names.length) return;
  const rows = await db.select({ username: user.username, role: user.role, service: user.service }).from(user).where(inArray(user.username, names));
  const found = new Map(rows.map((row) => [row.username, row]));
  const ties = await accountTies(db, [submitter]);
  const problems = names.flatMap((name, index) => {
    const row = found.get(name);
    const tie = ties.get(name);
    const problem =
      name === submitter
        ? `"${name}" is submitting this plan and cannot review it; ask someone else`
        : tie
          ? `"${name}" counts as ${submitter} under four-eyes (${tie.relation === 'created_by' ? `${submitter} made their account` : `they made ${submitter}'s account`}); ask someone else`
        : !row
          ? `There is no user named "${name}"`
          : row.service
            ? `"${name}" is a service account and cannot decide on a plan`
            : !hasRole(roleOf(row.role), 'approver')
              ? `"${name}" has the ${roleOf(row.role)} role; only approvers and admins can review`
              : null;
    return problem ? [{ path: `reviewers.${index}`, message: problem }] : [];
  });
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''} with the reviewers)` : '';
    throw new AppError('bad_request', 400, `${problems[0].message}${more}. Nothing was submitted.`, problems);
  }
}

export async function recordReviewRequests(tx: Database, input: { planId: string; revision: number; reviewers: string[]; requestedBy: string }): Promise<void> {
  if (!input.reviewers.length) return;
  await tx
    .insert(reviewRequests)
    .values(input.reviewers.map((reviewer) => ({ planId: input.planId, revision: input.revision, reviewer, requestedBy: input.requestedBy })))
    .onConflictDoNothing();
}

/**
 * Requests for the content of `contentRevision`: a layout-only save keeps the content, so
 * the requests made for it still stand; a content change asks for a new submission.
 */
export async function requestedReviewers(db: Database, planId: string, contentRevision: number): Promise<ReviewRequest[]> {
  const rows = await db
    .select()
    .from(reviewRequests)
    .where(and(eq(reviewRequests.planId, planId), gte(reviewRequests.revision, contentRevision)))
    .orderBy(asc(reviewRequests.createdAt), asc(reviewRequests.reviewer));
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(row.reviewer, row);
  return [...latest.values()].map((row) => ({
    reviewer: row.reviewer,
    requested_by: row.requestedBy,
    revision: row.revision,
    requested_at: row.createdAt.toISOString(),
  }));
}

export interface RequestedFromMe {
  id: string;
  title: string;
  revision: number;
  requested_by: string;
  requested_at: Date;
}

/** Plans in review whose current content someone asked `username` to review, waiting longest first. */
export async function reviewsRequestedFrom(db: Database, username: string): Promise<RequestedFromMe[]> {
  const rows = await db
    .select({
      id: plans.id,
      title: plans.title,
      revision: plans.headRevision,
      requested_by: reviewRequests.requestedBy,
      requested_at: reviewRequests.createdAt,
    })
    .from(reviewRequests)
    .innerJoin(plans, eq(plans.id, reviewRequests.planId))
    .where(and(eq(reviewRequests.reviewer, username), eq(plans.status, 'in_review'), sql`${reviewRequests.revision} >= ${plans.contentRevision}`))
    .orderBy(asc(reviewRequests.createdAt));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
}
