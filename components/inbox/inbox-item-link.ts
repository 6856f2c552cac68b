import type { InboxItem, InboxItemKind } from '@/lib/api/inbox-schemas';

// Where an inbox item leads and what it is called: a review request to the review page,
// a run's news to the plan's runs, anything about a task to that task in the editor,
// everything else to the plan.

export const KIND_LABELS: Record<InboxItemKind, string> = {
  review_requested: 'Review requested',
  decision: 'Decision',
  comment: 'Comment',
  mention: 'Mentioned you',
  approval_voided: 'Approval voided',
  run: 'Run',
};

export function inboxItemLink(item: InboxItem): { href: string; text: string } {
  const plan = `/plans/${encodeURIComponent(item.plan_id)}`;
  if (item.kind === 'run') return { href: `${plan}/runs`, text: `Runs of “${item.plan_title}”` };
  if (item.kind === 'review_requested') return { href: `${plan}/review`, text: `Review “${item.plan_title}”` };
  if (item.task_id) return { href: `${plan}?task=${encodeURIComponent(item.task_id)}`, text: `Open task ${item.task_id} in “${item.plan_title}”` };
  return { href: plan, text: `Open “${item.plan_title}”` };
}
