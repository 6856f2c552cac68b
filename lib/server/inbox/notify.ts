import 'server-only';
import type { InboxItemKind } from '@/lib/api/inbox-schemas';
import type { Database } from '../platform/db/client';
import { inboxItems } from '../platform/db/schema';

// Inbox items are written in the transaction of the action that caused them, like webhook
// deliveries: an item exists if and only if the action committed, and writing one is a
// single insert, so telling people never slows or fails the action itself.

export { INBOX_ITEM_KINDS as INBOX_KINDS } from '@/lib/api/inbox-schemas';
export type InboxKind = InboxItemKind;

export interface NotifyInput {
  recipients: Iterable<string>;
  kind: InboxKind;
  planId: string;
  revision?: number | null;
  taskId?: string | null;
  /** News of a run (a gate waiting, a run stopped): the item links to the run. */
  runId?: string | null;
  actor: string;
  summary: string;
}

/** Records one item per recipient in `tx`; the actor is never told about their own act. */
export async function notify(tx: Database, input: NotifyInput): Promise<number> {
  const recipients = [...new Set(input.recipients)].filter((name) => name && name !== input.actor);
  if (!recipients.length) return 0;
  await tx.insert(inboxItems).values(
    recipients.map((recipient) => ({
      recipient,
      kind: input.kind,
      planId: input.planId,
      revision: input.revision ?? null,
      taskId: input.taskId ?? null,
      runId: input.runId ?? null,
      actor: input.actor,
      summary: input.summary.slice(0, 500),
    })),
  );
  return recipients.length;
}
