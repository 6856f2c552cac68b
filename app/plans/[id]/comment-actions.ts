'use server';

import { z } from 'zod';
import { CreateCommentRequest } from '@/lib/api/comment-schemas';
import { runAction } from '@/lib/server/platform/action';
import { createComment, setThreadResolved } from '@/lib/server/comments/comment-service';
import { getDatabase } from '@/lib/server/platform/db/connection';

// Reading threads is GET /api/plans/{id}/comments (viewers may read); writing them needs
// the editor role, which approvers and admins have too.

const CreateInput = z.strictObject({ id: z.string().min(1), request: CreateCommentRequest });

export async function createCommentAction(input: z.input<typeof CreateInput>) {
  return runAction('editor', CreateInput, input, async ({ id, request }, principal) => {
    const { db } = await getDatabase();
    return createComment(db, id, request, principal);
  });
}

const ThreadInput = z.strictObject({ id: z.string().min(1), comment_id: z.string().min(1).max(200), resolved: z.boolean() });

export async function setThreadResolvedAction(input: z.input<typeof ThreadInput>) {
  return runAction('editor', ThreadInput, input, async ({ id, comment_id, resolved }, principal) => {
    const { db } = await getDatabase();
    return setThreadResolved(db, id, comment_id, resolved, principal);
  });
}
