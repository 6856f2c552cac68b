import { FieldComparisonHead } from '@/components/plan/field-comparison-head';
import type { ReplacementDiff } from '@/lib/replan/replan-diff';
import { taskLabel } from '@/lib/flow/task-label';
import { executionKind } from '@/lib/plan';

const show = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
const edgeText = (e: { from: string; to: string }) => `${e.from} → ${e.to}`;

/** One proposed replacement as the operator reviews it: the task before, the tasks after, field by field, and the edges that move. */
export function ReplacementCard({ diff, label, accepted, onToggle }: { diff: ReplacementDiff; label: string; accepted: boolean; onToggle: (on: boolean) => void }) {
  return (
    <section aria-label={`Replacement for ${label}`} className="space-y-2 rounded-md border border-slate-200 p-3">
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={accepted} disabled={diff.error !== null} onChange={(e) => onToggle(e.target.checked)} />
        Accept the replacement for {label}
      </label>
      {diff.error && (
        <p role="alert" className="text-xs text-rose-700">
          Cannot be applied: {diff.error}
        </p>
      )}
      <p className="text-xs">
        <span className="font-medium text-rose-800">Before</span> <span className="font-mono">{diff.before.task_id}</span>: {show(diff.before.description)}
      </p>
      <ol className="space-y-0.5 text-xs">
        {diff.after.map((task) => (
          <li key={task.task_id}>
            <span className="font-medium text-emerald-800">After</span> <span className="font-mono">{task.task_id}</span>: {taskLabel(task)} ({executionKind(task)}
            {task.agent_id ?? task.tool_id ?? task.function_id ? `, ${task.agent_id ?? task.tool_id ?? task.function_id}` : ''})
          </li>
        ))}
      </ol>
      {diff.fields.length > 0 && (
        <table className="w-full table-fixed text-left text-[11px]">
          <caption className="sr-only">Fields changed for {label}</caption>
          <FieldComparisonHead first="Before" second="After" className="text-slate-600" fieldWidth="w-28" />
          <tbody>
            {diff.fields.map((f) => (
              <tr key={f.field} className="align-top">
                <th scope="row" className="font-mono font-normal">
                  {f.field}
                </th>
                <td className="break-words bg-rose-50 px-1">{show(f.before)}</td>
                <td className="break-words bg-emerald-50 px-1">{show(f.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(diff.edges_added.length > 0 || diff.edges_removed.length > 0) && (
        <ul className="text-[11px] text-slate-700">
          {diff.edges_removed.map((e) => (
            <li key={`-${edgeText(e)}`}>
              <span className="text-rose-700">− dependency</span> {edgeText(e)}
            </li>
          ))}
          {diff.edges_added.map((e) => (
            <li key={`+${edgeText(e)}`}>
              <span className="text-emerald-700">+ dependency</span> {edgeText(e)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
