import 'server-only';
import type { ReviewFacts } from '@/lib/compute/jobs';
import { runComputeJob } from '../platform/compute/compute-pool';
import type { Database } from '../platform/db/client';
import { notFound } from '../platform/errors';
import { findRevisionTextWithPositions, revisionSkeleton } from '../plans/plan-repository';
import { getRevisionText } from '../plans/plan-service';
import { getRegistry } from '../registry/registry-service';

// What the review page reads of a revision, at any plan size: the revisions are read as text
// here and everything proportional to their tasks (parsing, validating, diffing) happens in a
// compute worker, which sends back only what the page draws. Read whole on this thread, a
// 20,000-task plan held it for seconds: two parses, a validation, and a 2,000-row table.

/**
 * The task table's rows for a plan too big to draw whole (over OVERVIEW_TASKS): the rest are in
 * its export. 2,000 rows made 13 MB of page and held the server's thread for over a second.
 */
export const BIG_PLAN_ROWS = 200;

export interface ReviewRead extends ReviewFacts {
  /** Where the base revision drew each task (the canvas's ghosts of removed tasks); empty when the base is the head. */
  basePositions: Record<string, { x: number; y: number }>;
}

/** The head revision `head` of plan `id` as its review reads it (its first `rows` tasks whole), compared with revision `base`. */
export async function readReviewFacts(db: Database, id: string, head: number, base: number, rows: number): Promise<ReviewRead> {
  const headText = await getRevisionText(db, id, head);
  const baseRow = base === head ? undefined : await findRevisionTextWithPositions(db, id, base);
  if (base !== head && !baseRow) throw notFound(`Revision ${base} of plan "${id}"`);
  const fields = (row: { planId: string; revision: number; schemaVersion: number; bodyText: string; tasksText: string }) => ({
    planId: row.planId,
    revision: row.revision,
    schemaVersion: row.schemaVersion,
    bodyText: row.bodyText,
    tasksText: row.tasksText,
  });
  const facts = await runComputeJob('reviewRevision', {
    head: fields(headText),
    base: baseRow && fields(baseRow),
    registry: await getRegistry(db),
    rows,
  });
  const basePositions = baseRow ? (((await revisionSkeleton(baseRow)).view?.positions ?? {}) as ReviewRead['basePositions']) : {};
  return { ...facts, basePositions };
}
