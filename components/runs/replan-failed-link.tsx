import Link from '@/components/ui/link';

/**
 * Opens the plan's editor at its head with the replan dialog open for these failed tasks;
 * the editor reads their errors from this run on the server, so no error text is in the link.
 */
export function ReplanFailedLink({ planId, runId, taskIds, className }: { planId: string; runId: string; taskIds: string[]; className?: string }) {
  const query = new URLSearchParams({ replan: taskIds.join(','), run: runId });
  return (
    <Link href={`/plans/${encodeURIComponent(planId)}?${query}`} className={className ?? 'text-sm text-brand-700 underline'}>
      {taskIds.length === 1 ? 'Replan this task' : `Replan these ${taskIds.length} tasks`}
    </Link>
  );
}
