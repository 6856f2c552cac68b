import { executionKind, valueChanges, type PlannerTask, type TaskChange } from '@/lib/plan';

// How a reviewer reads a task's stored fields: short values inline, long ones in a
// scrollable block, nothing hidden behind colour alone ("was" / "now" label each side).

const INLINE_LIMIT = 120;

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** One stored value: strings as text, anything else as JSON; long values scroll. */
export function FieldValue({ value }: { value: unknown }) {
  if (value === undefined) return <span className="italic text-slate-600">(absent)</span>;
  if (value === null) return <span className="italic text-slate-600">(none)</span>;
  if (value === '') return <span className="italic text-slate-600">(empty)</span>;
  const compact = typeof value === 'string' ? value : JSON.stringify(value);
  if (compact.length <= INLINE_LIMIT && !compact.includes('\n')) return <span className="whitespace-pre-wrap break-words font-mono">{compact}</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  // Focusable, so a keyboard can scroll it.
  return <pre tabIndex={0} className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-1.5 font-mono text-[11px] text-slate-800">{text}</pre>;
}

/** The label and value of each of a task's fields, in the order a reviewer reads them. */
export function taskFieldRows(task: PlannerTask, { skipEmpty }: { skipEmpty: boolean }): Array<{ label: string; value: unknown }> {
  const { stage2, ...parameters } = task.parameters;
  const kind = executionKind(task);
  const rows: Array<{ label: string; value: unknown }> = [
    { label: 'description', value: task.description },
    { label: 'execution_type', value: kind === task.execution_type ? task.execution_type : `${task.execution_type || '(none)'} (kind: ${kind || 'unknown'})` },
    { label: 'tool_id', value: task.tool_id },
    { label: 'agent_id', value: task.agent_id },
    { label: 'function_id', value: task.function_id },
    { label: 'dependencies', value: task.dependencies.join(', ') },
    { label: 'arguments', value: task.arguments },
    { label: 'parameters', value: parameters },
    { label: 'Stage 2 input (parameters.stage2)', value: stage2 },
    { label: 'instructions', value: task.instructions },
    { label: 'convertor_code', value: task.convertor_code },
    { label: 'estimate_data', value: task.estimate_data },
    { label: 'main_task_id', value: task.main_task_id },
    { label: 'status', value: task.status },
    { label: 'mark_replan', value: task.mark_replan ? 'true' : '' },
    { label: 'output', value: task.output },
    { label: 'creation_time', value: task.creation_time },
    { label: 'last_update_time', value: task.last_update_time },
  ];
  return skipEmpty ? rows.filter((row) => !isEmpty(row.value)) : rows;
}

/** Every non-empty field of a task (empty ones are left out and said to be). */
export function TaskFields({ task }: { task: PlannerTask }) {
  return (
    <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
      {taskFieldRows(task, { skipEmpty: true }).map((row) => (
        <div key={row.label} className="contents">
          <dt className="text-slate-500">{row.label}</dt>
          <dd className="min-w-0">
            <FieldValue value={row.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Each changed field, and inside JSON fields each changed key path, as was / now. */
export function FieldChanges({ fields }: { fields: TaskChange['fields'] }) {
  if (!fields.length) return <p className="text-xs text-slate-600">No field differs (other than ids and timestamps).</p>;
  const rows = fields.flatMap((f) =>
    valueChanges(f.before, f.after).map((c) => ({ label: c.path ? `${f.field}.${c.path}` : f.field, before: c.before, after: c.after })),
  );
  return (
    <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {rows.map((row) => (
        <div key={row.label} className="contents">
          <dt className="font-mono text-slate-600">{row.label}</dt>
          <dd className="grid min-w-0 gap-1 sm:grid-cols-2">
            <div className="min-w-0 rounded border-l-4 border-rose-300 bg-rose-50 px-1.5 py-0.5">
              <span className="mr-1 font-semibold text-rose-800">was</span>
              <del className="text-rose-900 no-underline">
                <FieldValue value={row.before} />
              </del>
            </div>
            <div className="min-w-0 rounded border-l-4 border-emerald-300 bg-emerald-50 px-1.5 py-0.5">
              <span className="mr-1 font-semibold text-emerald-800">now</span>
              <ins className="text-emerald-900 no-underline">
                <FieldValue value={row.after} />
              </ins>
            </div>
          </dd>
        </div>
      ))}
    </dl>
  );
}
