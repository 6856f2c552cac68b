'use server';

import { z } from 'zod';
import { RevisionNumber } from '@/lib/api/schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { listTaskViews, setTaskViewed } from '@/lib/server/review/task-views-service';

// A reviewer's "viewed" marks. The least role is viewer: anyone who can open the review
// page reads it, and marking what one has read decides nothing. Each caller reads and
// changes only their own marks.

const TaskViewsInput = z.strictObject({ planId: z.string().min(1), revision: RevisionNumber });

export async function listTaskViewsAction(input: z.input<typeof TaskViewsInput>) {
  return runAction('viewer', TaskViewsInput, input, async (key, principal) => {
    const { db } = await getDatabase();
    return listTaskViews(db, key, principal.username);
  });
}

const SetTaskViewedInput = TaskViewsInput.extend({ taskId: z.string().min(1).max(1_000), viewed: z.boolean() });

export async function setTaskViewedAction(input: z.input<typeof SetTaskViewedInput>) {
  return runAction('viewer', SetTaskViewedInput, input, async (mark, principal) => {
    const { db } = await getDatabase();
    return setTaskViewed(db, mark, principal.username);
  });
}
