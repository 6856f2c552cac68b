'use client';

import { useCommentsContext } from '@/components/comments/comments-context';
import { labelsOfPlan } from '@/lib/flow/task-label';
import { useEditor } from './editor-context';
import { tasksById } from '@/lib/plan/task-index';

const VERB = { changes_requested: 'requested changes to', rejected: 'rejected' } as const;

/**
 * The newest request for changes (or rejection) where the editor works on it, on one line so
 * the canvas keeps its height: who, on which revision, the comment's first line (all of it
 * on demand), and the tasks it is about as links that select and show them.
 */
export function DecisionBanner({ onReveal }: { onReveal: (taskId: string) => void }) {
  const comments = useCommentsContext();
  const decision = comments?.decision;
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  if (!comments || !decision) return null;
  const byId = tasksById(tasks);
  const labels = labelsOfPlan(tasks);
  const named = decision.taskIds.filter((id) => byId.has(id));
  const title = `${decision.reviewer} ${VERB[decision.decision]} revision ${decision.revision}`;
  const firstLine = decision.comment.split('\n', 1)[0];
  const more = decision.comment.length > firstLine.length || firstLine.length > 120;
  return (
    <section aria-label={title} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-rose-300 bg-rose-50 px-3 py-1.5 text-sm text-rose-950">
      <strong>
        {title}
        {decision.comment ? ':' : '.'}
      </strong>
      {decision.comment &&
        (more ? (
          <details className="min-w-0 max-w-full">
            <summary className="cursor-pointer truncate">“{firstLine.slice(0, 120)}…”</summary>
            <blockquote className="mt-1 whitespace-pre-wrap break-words border-l-2 border-rose-300 pl-2">{decision.comment}</blockquote>
          </details>
        ) : (
          <span className="min-w-0 break-words">“{decision.comment}”</span>
        ))}
      {named.length > 0 && (
        <nav aria-label="Tasks the decision names" className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="text-xs font-medium">About:</span>
          {named.map((id) => (
            <a
              key={id}
              href={`/plans/${encodeURIComponent(comments.planId)}?task=${encodeURIComponent(id)}`}
              className="text-xs font-medium text-rose-900 underline hover:text-rose-950"
              onClick={(event) => {
                event.preventDefault();
                onReveal(id);
              }}
            >
              {labels.get(id) ?? id}
            </a>
          ))}
        </nav>
      )}
    </section>
  );
}
