import type { InboxItem, InboxItemKind } from '@/lib/api/inbox-schemas';

// Where an inbox item leads and what it is called: a review request to the review page,
// a gate waiting to the run (where the recipient decides it), a run's news to the run (or
// the plan's runs), anything about a task to that task in the editor, everything else to the plan.

export const KIND_LABELS: Record<InboxItemKind, string> = {
  review_requested: 'Review requested',
  decision: 'Decision',
  comment: 'Comment',
  mention: 'Mentioned you',
  approval_voided: 'Approval voided',
  run: 'Run',
  gate: 'Gate waiting',
};

export function inboxItemLink(item: InboxItem): { href: string; text: string } {
  const plan = `/plans/${encodeURIComponent(item.plan_id)}`;
  if (item.run_id) {
    const run = `/runs/${encodeURIComponent(item.run_id)}`;
    if (item.kind === 'gate') return { href: run, text: `Decide at the gate of ${item.task_id ?? 'a task'} (run ${item.run_id.slice(0, 8)} of “${item.plan_title}”)` };
    return { href: run, text: `Open run ${item.run_id.slice(0, 8)} of “${item.plan_title}”` };
  }
  if (item.kind === 'run') return { href: `${plan}/runs`, text: `Runs of “${item.plan_title}”` };
  if (item.kind === 'review_requested') return { href: `${plan}/review`, text: `Review “${item.plan_title}”` };
  if (item.task_id) return { href: `${plan}?task=${encodeURIComponent(item.task_id)}`, text: `Open task ${item.task_id} in “${item.plan_title}”` };
  return { href: plan, text: `Open “${item.plan_title}”` };
}
