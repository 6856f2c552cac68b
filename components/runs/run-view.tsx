'use client';

import Link from '@/components/ui/link';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PlanHead } from '@/components/plan/plan-head';
import type { RunResponse } from '@/lib/api/run-schemas';
import { PlanEditor } from '@/components/editor/plan-editor';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { labelsOfPlan } from '@/lib/flow/task-label';
import { linkedTask, missingTaskMessage } from '@/lib/flow/task-link';
import { BLOCK_ERROR } from '@/components/form/action-error';
import type { Registry } from '@/lib/registry';
import type { PlanDocument } from '@/lib/plan';
import { gateAllowsEdit } from '@/lib/runs/task-policy';
import { FINISHED_RUN_STATES } from '@/lib/runs/run-states';
import { GateCard, type GateRefusal } from './gate-card';
import { RunCanvas } from './run-canvas';
import { RunControls } from './run-controls';
import { RunNextStep } from './run-next-step';
import { RunStateContext } from './run-state-context';
import { RunStateChip, taskCountsText } from './run-state-style';
import { RunTimeline, type PredictedSpan } from './run-timeline';
import { TaskRunPanel } from './task-run-panel';
import { useLiveRun } from './use-live-run';

export interface RunViewProps {
  initial: RunResponse;
  /** The run's revision: what it runs, exactly. */
  doc: PlanDocument;
  /** The plan's head revision: a newer approved one is what a stopped run continues with. */
  head: PlanHead;
  canControl: boolean;
  gateRefusal: GateRefusal;
  /** The latest dry run of the same revision, per task; null without one. */
  predicted: Record<string, PredictedSpan> | null;
  /** Given for a run of more than OVERVIEW_TASKS tasks, drawn by the editor's overview (aggregates with their tasks' states). */
  registry: Registry | null;
  /**
   * The task the page's link names (`?task=`), from the page: not read with useSearchParams,
   * which would draw the whole view again each time the editor drawing a big run writes its
   * viewport into the address.
   */
  linkedTaskId: string | null;
}

/** "Now", ticking while the run goes, so running tasks' durations count up; still once it has finished. */
function useNow(live: boolean, tasks: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    // Every node is drawn again on a tick: a big plan ticks less often.
    const timer = setInterval(() => setNow(Date.now()), tasks > 1000 ? 5000 : 1000);
    return () => clearInterval(timer);
  }, [live, tasks]);
  return now;
}

/**
 * A run as it goes: the plan across the page, each task in its state; what to do next after a
 * failure; the gates to decide; the selected task's details beside the graph; the timeline below.
 */
export function RunView({ initial, doc, head, canControl, gateRefusal, predicted, registry, linkedTaskId }: RunViewProps) {
  const run = useLiveRun(initial);
  const live = !FINISHED_RUN_STATES.has(run.state);
  const now = useNow(live, run.tasks.length);
  const byId = useMemo(() => new Map(run.tasks.map((t) => [t.task_id, t])), [run.tasks]);
  const planTasks = useMemo(() => new Map(doc.plan.planned_tasks.map((t) => [t.task_id, t])), [doc]);
  const labels = labelsOfPlan(doc.plan.planned_tasks);
  const states = useMemo(() => new Map(run.tasks.map((t) => [t.task_id, t.state])), [run.tasks]);
  const predictedSpans = useMemo(() => (predicted ? new Map(Object.entries(predicted)) : null), [predicted]);
  // The task a link opened (?task=), then whichever is selected on the canvas or in the timeline.
  // One the run's revision does not have is said above the canvas (the editor, drawing a big
  // plan, says so itself).
  const [linked] = useState(() => linkedTask(doc.plan.planned_tasks, linkedTaskId));
  const [selectedId, setSelectedId] = useState(linked.found);
  const big = doc.plan.planned_tasks.length > OVERVIEW_TASKS;
  const followCanvas = useCallback((ids: string[]) => setSelectedId(ids[0] ?? null), []);
  const selected = selectedId ? (byId.get(selectedId) ?? null) : null;
  const gates = run.tasks.filter((t) => t.state === 'awaiting_approval');
  return (
    <div className="flex flex-col gap-3 p-4">
      <section aria-labelledby="run-heading" className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <h2 id="run-heading" className="text-base font-semibold">
          Run <span className="font-mono text-sm">{run.run_id.slice(0, 8)}</span> of{' '}
          <Link href={`/plans/${run.plan_id}/r/${run.revision}`} className="text-brand-700 underline">
            revision {run.revision}
          </Link>
        </h2>
        <span role="status" aria-label="Run state" className="flex items-center gap-1 text-sm">
          <RunStateChip state={run.state} />
        </span>
        <span className="text-sm text-slate-700">started by {run.started_by}</span>
        {run.parent_run_id && (
          <Link href={`/runs/${run.parent_run_id}`} className="text-sm text-brand-700 hover:underline">
            continues run {run.parent_run_id.slice(0, 8)}
          </Link>
        )}
        <span className="text-xs text-slate-700">{taskCountsText(run.counts)}</span>
        <span className="ml-auto">{canControl && <RunControls run={run} />}</span>
      </section>
      <RunNextStep run={run} labels={labels} canControl={canControl} head={head} onShowTask={setSelectedId} />
      {gates.length > 0 && (
        <section aria-labelledby="gates-heading" className="space-y-2">
          <h2 id="gates-heading" className="text-sm font-semibold">
            Waiting for approval ({gates.length})
          </h2>
          <ul className="grid gap-2 md:grid-cols-2">
            {gates.map((task) => {
              const planned = planTasks.get(task.task_id);
              return (
                <li key={`${task.task_id}:${task.generation}`}>
                  <GateCard
                    runId={run.run_id}
                    taskId={task.task_id}
                    label={labels.get(task.task_id) ?? task.task_id}
                    input={task.input}
                    refusal={gateRefusal}
                    allowEdit={planned ? gateAllowsEdit(planned) : false}
                  />
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {linked.missing !== null && selectedId === null && !(registry && big) && (
        <p role="alert" className={BLOCK_ERROR}>
          {missingTaskMessage(linked.missing, run.revision)}
        </p>
      )}
      <div className="relative h-[calc(100vh-13rem)] min-h-[28rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
        <section aria-label="Plan as it runs" className="h-full">
          {registry && big ? (
            <RunStateContext.Provider value={states}>
              <PlanEditor planId={run.plan_id} revision={run.revision} doc={doc} readOnly registry={registry} onSelectionChange={followCanvas} />
            </RunStateContext.Provider>
          ) : (
            <RunCanvas doc={doc} tasks={byId} labels={labels} selectedId={selectedId} onSelect={setSelectedId} now={now} />
          )}
        </section>
        {selected && (
          <aside aria-label="Selected task" className="absolute inset-y-0 right-0 z-10 w-[26rem] max-w-full overflow-y-auto border-l border-slate-200 bg-white shadow-xl">
            <TaskRunPanel
              runId={run.run_id}
              planId={run.plan_id}
              task={selected}
              label={labels.get(selected.task_id) ?? selected.task_id}
              canRetry={canControl && live && !run.continued_by}
              now={now}
              onClose={() => setSelectedId(null)}
            />
          </aside>
        )}
      </div>
      <section aria-labelledby="timeline-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="timeline-heading" className="mb-2 text-sm font-semibold">
          Timeline
        </h2>
        <RunTimeline tasks={run.tasks} labels={labels} predicted={predictedSpans} onSelect={setSelectedId} />
      </section>
    </div>
  );
}
