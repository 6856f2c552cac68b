import Link from '@/components/ui/link';
import type { PlannerTask } from '@/lib/plan';
import { storedStage2 } from '@/lib/planning/planning-types';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import type { GanttTask } from './gantt-model';
import { barName } from './gantt-model';
import { ResolvedJson } from './resolved-json';

// The selected task as the dry run sees it, read-only: when it would run, the input it would
// get (its references resolved against the mock outputs upstream, or its convertor's
// result), the mock output it would hand on, and what the dry run found wrong with it.

type Finding = StoredDryRun['result']['findings'][number];
type TaskRun = StoredDryRun['result']['tasks'][number];

const CONVERTOR_CODES = new Set(['convertor_error', 'convertor_timeout', 'convertor_memory', 'convertor_output']);

export interface DryRunInspectorProps {
  planId: string;
  task: PlannerTask | null;
  run: TaskRun | null;
  gantt: GanttTask | null;
  findings: readonly Finding[];
  spanMs: number;
  /** Said while nothing is selected: the link named a task this revision does not have. */
  missing?: string | null;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{title}</h4>
      {children}
    </div>
  );
}

function NotKept({ what }: { what: string }) {
  return <p className="text-xs text-slate-600">No {what} kept: over 64 kB, or past the dry run&apos;s 2 MB of kept data (the assumptions say which).</p>;
}

export function DryRunInspector({ planId, task, run, gantt, findings, spanMs, missing }: DryRunInspectorProps) {
  if (!task || !run) {
    return (
      <aside aria-label="Dry-run inspector" className="p-4 text-sm text-slate-600">
        <h3 className="mb-2 font-semibold text-slate-900">Task in this dry run</h3>
        {missing && (
          <p role="alert" className="mb-2 text-rose-800">
            {missing}
          </p>
        )}
        <p>Select a task on the timeline, in the table or on the canvas to see its resolved input, mock output and findings.</p>
      </aside>
    );
  }
  const ran = run.status === 'ran';
  const raw = storedStage2(task)?.input_data ?? task.arguments;
  const messages = findings.map((f) => f.message);
  const convertorFindings = findings.filter((f) => CONVERTOR_CODES.has(f.code));
  const hasConvertor = !!task.convertor_code;
  const converted = hasConvertor && ran && convertorFindings.length === 0;
  return (
    <aside aria-label="Dry-run inspector" className="space-y-4 p-4 text-sm">
      <div>
        <h3 className="font-semibold text-slate-900">{gantt?.label ?? task.task_id}</h3>
        <p className="font-mono text-xs text-slate-600">{task.task_id}</p>
        {gantt && <p className="mt-1 text-xs text-slate-700">{barName(gantt, spanMs)}</p>}
        <Link href={`/plans/${planId}?task=${encodeURIComponent(task.task_id)}`} className="text-xs text-brand-700 underline">
          Open in the editor
        </Link>
      </div>

      <Section title={`Findings (${findings.length})`}>
        {findings.length ? (
          <ul aria-label="Findings of this task" className="space-y-1 text-xs">
            {findings.map((f, i) => (
              <li key={i} className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
                <span className="font-mono font-semibold">{f.code}</span>: {f.message}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-slate-600">None for this task.</p>
        )}
      </Section>

      {!ran ? (
        <p className="rounded border border-slate-200 bg-slate-50 p-2 text-xs text-slate-700">
          This task {run.status === 'failed' ? 'fails' : 'is skipped because a task upstream fails'} in this dry run, so it gets no input and hands on no output.
        </p>
      ) : (
        <>
          <Section title={converted ? 'Resolved input (the convertor’s result)' : 'Resolved input'}>
            {run.resolved_input === null || run.resolved_input === undefined ? (
              <NotKept what="resolved input" />
            ) : (
              // After a convertor the input has its own shape: the arguments no longer line up with it.
              <ResolvedJson value={run.resolved_input} raw={converted ? undefined : raw} problems={messages} label="Resolved input" />
            )}
          </Section>
          {hasConvertor && (
            <Section title="Convertor">
              {convertorFindings.length ? (
                <p className="text-xs text-rose-800">The convertor failed: {convertorFindings.map((f) => f.message).join('; ')}. The input above is its unconverted input.</p>
              ) : (
                <>
                  <p className="text-xs text-slate-700">The convertor ran in the sandbox; its result is the input above. The task&apos;s arguments as written:</p>
                  <ResolvedJson value={raw} label="Arguments as written" />
                </>
              )}
            </Section>
          )}
          <Section title="Mock output">
            {run.mock_output === null || run.mock_output === undefined ? <NotKept what="mock output" /> : <ResolvedJson value={run.mock_output} label="Mock output" />}
          </Section>
        </>
      )}
    </aside>
  );
}
