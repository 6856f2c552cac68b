'use client';

import Link from 'next/link';
import { useMemo, useState } from 'react';
import { runDryRunAction } from '@/app/plans/[id]/dry-run-actions';
import { PlanEditor } from '@/components/editor/plan-editor';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';
import type { PlanDocument } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import { taskVerdicts } from '@/lib/simulate/task-verdicts';
import { DryRunForm, type DryRunFormValues } from './dry-run-form';
import { DryRunSummary } from './dry-run-summary';
import { GanttChart } from './gantt-chart';

export interface DryRunWorkbenchProps {
  planId: string;
  revision: number;
  doc: PlanDocument;
  registry: Registry;
  canRun: boolean;
  initial: StoredDryRun | null;
}

/** Settings, then the evidence: figures, timeline, the plan coloured by what would happen, findings and assumptions. */
export function DryRunWorkbench({ planId, revision, doc, registry, canRun, initial }: DryRunWorkbenchProps) {
  const [run, setRun] = useState(initial);
  // The answer is the whole result, shown here; the rest of the page does not change.
  const dryRun = useServerAction(runDryRunAction, { refresh: 'never', onSuccess: setRun });
  const labels = useMemo(() => new Map(doc.plan.planned_tasks.map((t) => [t.task_id, t.description || t.task_id])), [doc]);
  const simulation = useMemo(() => (run ? taskVerdicts(run.result) : undefined), [run]);

  return (
    <div className="space-y-4">
      {canRun ? (
        <section aria-label="Run a dry run" className="rounded-lg border border-slate-200 bg-white p-4">
          <DryRunForm
            tasks={doc.plan.planned_tasks.map((t) => ({ id: t.task_id, label: labels.get(t.task_id)! }))}
            pending={dryRun.pending}
            onRun={(options: DryRunFormValues) => void dryRun.run({ id: planId, options })}
          />
          <ActionError message={dryRun.error} className={`mt-2 ${BLOCK_ERROR}`} />
        </section>
      ) : (
        <p className="text-sm text-slate-600">Editors run dry runs; you see the latest one.</p>
      )}
      {!run ? (
        <p className="text-sm text-slate-600">No dry run of revision {revision} yet.</p>
      ) : (
        <>
          <section aria-labelledby="dry-run-result-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            <h2 id="dry-run-result-heading" className="text-lg font-semibold">
              Dry run #{run.id} of revision {run.revision} on {run.result.workers} workers
            </h2>
            <DryRunSummary run={run} />
            <GanttChart result={run.result} />
          </section>
          <section aria-label="Plan as the dry run sees it" className="h-[24rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
            <PlanEditor key={run.id} planId={planId} revision={revision} doc={doc} readOnly registry={registry} simulation={simulation} />
          </section>
          <div className="grid gap-4 md:grid-cols-3">
            <TaskList title="Skipped because an upstream task failed" ids={run.result.skipped_task_ids} planId={planId} labels={labels} />
            <section aria-labelledby="findings-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h3 id="findings-heading" className="font-semibold">
                Findings ({run.result.findings.length})
              </h3>
              <ul className="mt-2 space-y-1">
                {run.result.findings.slice(0, 200).map((finding, i) => (
                  <li key={i}>
                    <Link href={`/plans/${planId}?task=${encodeURIComponent(finding.task_id)}`} className="font-medium text-brand-700 hover:underline">
                      {labels.get(finding.task_id) ?? finding.task_id}
                    </Link>
                    : {finding.message}
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="assumptions-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h3 id="assumptions-heading" className="font-semibold">
                Assumptions
              </h3>
              <ul className="mt-2 list-disc space-y-1 pl-4">
                {run.result.assumptions.length ? run.result.assumptions.map((a) => <li key={a}>{a}</li>) : <li>Every task has its own estimate.</li>}
              </ul>
            </section>
          </div>
        </>
      )}
    </div>
  );
}

function TaskList({ title, ids, planId, labels }: { title: string; ids: string[]; planId: string; labels: Map<string, string> }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h3 className="font-semibold">
        {title} ({ids.length})
      </h3>
      <ul className="mt-2 space-y-1">
        {ids.slice(0, 200).map((id) => (
          <li key={id}>
            <Link href={`/plans/${planId}?task=${encodeURIComponent(id)}`} className="text-brand-700 hover:underline">
              {labels.get(id) ?? id}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
