'use client';

import { computeStage2Action } from '@/app/plans/[id]/planning-actions';
import { ActionError } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';
import type { PlannerTask } from '@/lib/plan';
import { storedStage2 } from '@/lib/planning/planning-types';
import { useEditorStore } from './editor-context';

/**
 * Seed 000's Stage 2 for the selected task: which resource runs it and with what input.
 * The answer lands in `parameters.stage2` as one undoable edit, so it is saved, reviewed
 * and approved with the rest of the plan (and can be edited in Parameters).
 */
export function Stage2Panel({ task, readOnly }: { task: PlannerTask; readOnly: boolean }) {
  const store = useEditorStore();
  const stage2 = storedStage2(task);
  // The answer is an edit of the editor's document, saved with the rest: nothing to refresh.
  const planner = useServerAction(computeStage2Action, {
    refresh: 'never',
    onSuccess: ({ task_id: taskId, ...answer }) => {
      // Merged into the task as it is now: edits made while Stage 2 ran are kept.
      const { doc, updateTask } = store.getState();
      const current = doc.plan.planned_tasks.find((t) => t.task_id === taskId);
      if (current) updateTask(taskId, { parameters: { ...current.parameters, stage2: answer } });
    },
  });

  return (
    <section aria-label="Stage 2" className="space-y-2 rounded-md border border-slate-200 p-2">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold text-slate-700">Stage 2</h3>
        {!readOnly && (
          <button type="button" onClick={() => void planner.run({ task, input_data: {} })} disabled={planner.pending} className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-50 disabled:opacity-60">
            {planner.pending ? 'Planning…' : stage2 ? 'Run Stage 2 again' : 'Run Stage 2'}
          </button>
        )}
      </div>
      {stage2 ? (
        <dl className="space-y-1 text-xs">
          <dt className="font-medium text-slate-600">uid</dt>
          <dd className="font-mono" aria-label="Stage 2 uid">
            {stage2.uid}
          </dd>
          <dt className="font-medium text-slate-600">input_data</dt>
          <dd>
            <pre aria-label="Stage 2 input_data" className="max-h-40 overflow-auto rounded bg-slate-50 p-1 font-mono text-[11px]">
              {JSON.stringify(stage2.input_data, null, 2)}
            </pre>
          </dd>
          {stage2.planned_by && (
            <dd className="text-slate-500">
              by {stage2.planned_by.backend} · {stage2.planned_by.model}
            </dd>
          )}
        </dl>
      ) : (
        <p className="text-xs text-slate-500">Not planned yet: no resource or input chosen for this task.</p>
      )}
      <ActionError message={planner.error} className="block text-xs text-rose-700" />
    </section>
  );
}
