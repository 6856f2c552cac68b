'use client';

import Link from '@/components/ui/link';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';
import { replaceQuery } from '@/components/ui/replace-query';
import { labelsOfPlan } from '@/lib/flow/task-label';
import { linkedTask, missingTaskMessage } from '@/lib/flow/task-link';
import type { PlanDocument } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import { estimateTasks } from '@/lib/simulate/task-estimates';
import { taskVerdicts } from '@/lib/simulate/task-verdicts';
import { DryRunCanvas } from './dry-run-canvas';
import { DryRunForm } from './dry-run-form';
import { DryRunInspector } from './dry-run-inspector';
import { DEFAULT_SETTINGS, settingsFromParams, writeSettings, type DryRunSettings } from './dry-run-settings';
import { DryRunSummary } from './dry-run-summary';
import { DryRunTimeline } from './dry-run-timeline';
import { ganttModel } from './gantt-model';
import { postDryRun } from './post-dry-run';

export interface DryRunWorkbenchProps {
  planId: string;
  revision: number;
  doc: PlanDocument;
  registry: Registry;
  canRun: boolean;
  initial: StoredDryRun | null;
}

/** The settings a stored dry run was made with, as far as its result says. */
function settingsOf(run: StoredDryRun | null): DryRunSettings {
  if (!run) return DEFAULT_SETTINGS;
  const { result } = run;
  return {
    ...DEFAULT_SETTINGS,
    workers: result.workers,
    limits: result.limits,
    seed: result.seed,
    runs: result.monte_carlo?.runs ?? 1,
    failure_probability: result.monte_carlo?.failure_probability ?? 0,
    fail_task_ids: result.failed_task_ids,
  };
}

/** Settings, then the evidence: figures, the timeline, the plan coloured by what would happen, the selected task's data, findings and assumptions. */
export function DryRunWorkbench({ planId, revision, doc, registry, canRun, initial }: DryRunWorkbenchProps) {
  const search = useSearchParams();
  const [run, setRun] = useState(initial);
  // The address names the settings (a shared or reloaded dry run), else the latest run's.
  const [settings, setSettings] = useState(() => settingsFromParams(new URLSearchParams(search.toString()), settingsOf(initial)));
  // The task a link names, selected; one the revision does not have is said in the inspector.
  const [linked] = useState(() => linkedTask(doc.plan.planned_tasks, search.get('task')));
  const [selectedId, setSelectedId] = useState<string | null>(linked.found);
  // The answer is the whole result, shown here; the rest of the page does not change.
  const dryRun = useServerAction(postDryRun, { refresh: 'never', onSuccess: setRun });

  useEffect(() => replaceQuery((params) => writeSettings(params, settings)), [settings]);
  useEffect(
    () =>
      replaceQuery((params) => {
        if (selectedId) params.set('task', selectedId);
        else params.delete('task');
      }),
    [selectedId],
  );

  const tasks = doc.plan.planned_tasks;
  const labels = labelsOfPlan(tasks);
  const pickable = useMemo(() => tasks.map((t) => ({ id: t.task_id, label: labels.get(t.task_id)!, text: t.description ?? '' })), [tasks, labels]);
  const costs = useMemo(() => {
    const estimates = estimateTasks(tasks, registry);
    // A task without any cost estimate has an unknown cost, never $0.
    const unknown = new Set(estimates.costUnknown);
    return new Map(tasks.map((t, i) => [t.task_id, unknown.has(i) || !Number.isFinite(estimates.costs[i]) ? null : estimates.costs[i]]));
  }, [tasks, registry]);
  const verdicts = useMemo(() => (run ? taskVerdicts(run.result) : undefined), [run]);
  const model = useMemo(() => (run ? ganttModel(run.result, labels, costs) : null), [run, labels, costs]);
  const byTask = useMemo(() => new Map(tasks.map((t) => [t.task_id, t])), [tasks]);
  const runsByTask = useMemo(() => new Map((run?.result.tasks ?? []).map((t) => [t.task_id, t])), [run]);
  const findings = useMemo(() => (run && selectedId ? run.result.findings.filter((f) => f.task_id === selectedId) : []), [run, selectedId]);
  const select = useCallback((id: string) => setSelectedId(id), []);

  const selectedTask = selectedId ? (byTask.get(selectedId) ?? null) : null;

  return (
    <div className="space-y-4">
      {canRun ? (
        <section aria-label="Run a dry run" className="rounded-lg border border-slate-200 bg-white p-4">
          <DryRunForm
            tasks={pickable}
            settings={settings}
            onChange={setSettings}
            pending={dryRun.pending}
            onRun={({ failure_probability_overrides: overrides, ...options }) =>
              void dryRun.run({ id: planId, options: Object.keys(overrides).length ? { ...options, failure_probability_overrides: overrides } : options })
            }
          />
          <ActionError message={dryRun.error} className={`mt-2 ${BLOCK_ERROR}`} />
        </section>
      ) : (
        <p className="text-sm text-slate-600">Editors run dry runs; you see the latest one.</p>
      )}
      {!run || !model ? (
        <p className="text-sm text-slate-600">No dry run of revision {revision} yet.</p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-4">
            <section aria-labelledby="dry-run-result-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
              <h2 id="dry-run-result-heading" className="text-lg font-semibold">
                Dry run #{run.number} of revision {run.revision} on {run.result.workers} workers
              </h2>
              <DryRunSummary run={run} />
              <DryRunTimeline model={model} selectedId={selectedId} onSelect={select} />
            </section>
            <section aria-label="Plan as the dry run sees it" className="h-[75vh] min-h-[28rem] overflow-hidden rounded-lg border border-slate-200 bg-white">
              <DryRunCanvas key={run.id} doc={doc} labels={labels} verdicts={verdicts} selectedId={selectedId} onSelect={select} />
            </section>
          </div>
          <div className="rounded-lg border border-slate-200 bg-white lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
            <DryRunInspector
              planId={planId}
              task={selectedTask}
              missing={selectedId === null && linked.missing !== null ? missingTaskMessage(linked.missing, revision) : null}
              run={selectedId ? (runsByTask.get(selectedId) ?? null) : null}
              gantt={selectedId ? (model.byId.get(selectedId) ?? null) : null}
              findings={findings}
              spanMs={model.spanMs}
            />
          </div>
          <div className="grid gap-4 md:grid-cols-3 lg:col-span-2">
            <TaskList title="Skipped because an upstream task failed" ids={run.result.skipped_task_ids} labels={labels} onSelect={select} />
            <section aria-labelledby="findings-heading" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h3 id="findings-heading" className="font-semibold">
                Findings ({run.result.findings.length})
              </h3>
              <ul className="mt-2 max-h-96 space-y-1 overflow-y-auto">
                {run.result.findings.slice(0, 200).map((finding, i) => (
                  <li key={i}>
                    <button type="button" onClick={() => select(finding.task_id)} className="text-left font-medium text-brand-700 hover:underline">
                      {labels.get(finding.task_id) ?? finding.task_id}
                    </button>
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
        </div>
      )}
      <p className="text-xs text-slate-500">
        <Link href={`/plans/${planId}`} className="text-brand-700 underline">
          Edit the plan
        </Link>{' '}
        to change what the dry run sees; the settings above stay in this page&apos;s address, so a link repeats the same dry run.
      </p>
    </div>
  );
}

function TaskList({ title, ids, labels, onSelect }: { title: string; ids: string[]; labels: ReadonlyMap<string, string>; onSelect: (id: string) => void }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h3 className="font-semibold">
        {title} ({ids.length})
      </h3>
      <ul className="mt-2 max-h-96 space-y-1 overflow-y-auto">
        {ids.slice(0, 200).map((id) => (
          <li key={id}>
            <button type="button" onClick={() => onSelect(id)} className="text-left text-brand-700 hover:underline">
              {labels.get(id) ?? id}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
