'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { PlanEditor } from '@/components/editor/plan-editor';
import type { RunResponse } from '@/lib/api/run-schemas';
import { taskLabel } from '@/lib/flow/task-label';
import type { PlanDocument } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import { GateList, type GateRefusal } from './gate-list';
import { ReplanFailedLink } from './replan-failed-link';
import { RunControls } from './run-controls';
import { RunStateContext } from './run-state-context';
import { RunStateChip, taskCountsText } from './run-state-style';
import { RunTimeline, type PredictedSpan } from './run-timeline';
import { TaskRunPanel } from './task-run-panel';
import { useLiveRun } from './use-live-run';

export interface RunViewProps {
  initial: RunResponse;
  /** The run's revision: what it runs, exactly. */
  doc: PlanDocument;
  registry: Registry;
  canControl: boolean;
  gateRefusal: GateRefusal;
  /** The latest dry run of the same revision, per task; null without one. */
  predicted: Record<string, PredictedSpan> | null;
}

/** A run as it goes: the plan coloured and labelled by each task's state, the gates, the timeline and the selected task. */
export function RunView({ initial, doc, registry, canControl, gateRefusal, predicted }: RunViewProps) {
  const run = useLiveRun(initial);
  const states = useMemo(() => new Map(run.tasks.map((t) => [t.task_id, t.state])), [run.tasks]);
  const labels = useMemo(() => new Map(doc.plan.planned_tasks.map((t) => [t.task_id, taskLabel(t)])), [doc]);
  const predictedSpans = useMemo(() => (predicted ? new Map(Object.entries(predicted)) : null), [predicted]);
  // The task a link opened (?task=), then whichever is selected on the canvas or in the timeline.
  const [selectedId, setSelectedId] = useState(useSearchParams().get('task'));
  const followCanvas = useCallback((ids: string[]) => setSelectedId(ids[0] ?? null), []);
  const selected = run.tasks.find((t) => t.task_id === selectedId) ?? null;
  const gates = run.tasks.filter((t) => t.state === 'awaiting_approval');
  const failedIds = run.tasks.filter((t) => t.state === 'failed').map((t) => t.task_id);
  return (
    <div className="space-y-4 p-4">
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
        <span className="text-sm text-slate-600">started by {run.started_by}</span>
        {run.parent_run_id && (
          <Link href={`/runs/${run.parent_run_id}`} className="text-sm text-brand-700 hover:underline">
            continues run {run.parent_run_id.slice(0, 8)}
          </Link>
        )}
        <span className="text-xs text-slate-600">{taskCountsText(run.counts)}</span>
        {canControl && run.state === 'needs_replan' && failedIds.length > 0 && <ReplanFailedLink planId={run.plan_id} runId={run.run_id} taskIds={failedIds} />}
        <span className="ml-auto">{canControl && <RunControls runId={run.run_id} state={run.state} />}</span>
      </section>
      <GateList runId={run.run_id} gates={gates} labels={labels} refusal={gateRefusal} />
      <div className="grid gap-4 lg:grid-cols-[1fr_22rem]">
        <section aria-label="Plan as it runs" className="h-[30rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
          <RunStateContext.Provider value={states}>
            <PlanEditor planId={run.plan_id} revision={run.revision} doc={doc} readOnly registry={registry} onSelectionChange={followCanvas} />
          </RunStateContext.Provider>
        </section>
        <div className="rounded-lg border border-slate-200 bg-white">
          <TaskRunPanel runId={run.run_id} planId={run.plan_id} task={selected} label={selected ? (labels.get(selected.task_id) ?? selected.task_id) : ''} canControl={canControl} />
        </div>
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
