'use server';

import { MarkReadRequest } from '@/lib/api/inbox-schemas';
import { runAction } from '@/lib/server/platform/action';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { markRead } from '@/lib/server/inbox/inbox-service';

// Marking one's own items read changes no plan, so a viewer may do it too.
export async function markInboxReadAction(input: MarkReadRequest) {
  return runAction('viewer', MarkReadRequest, input, async (request, principal) => {
    const { db } = await getDatabase();
    return markRead(db, principal.username, request);
  });
}
