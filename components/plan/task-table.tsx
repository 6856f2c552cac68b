import type { PlannerTask } from '@/lib/plan';
import { ExecutionTypeBadge } from './execution-type-badge';

function target(task: PlannerTask): string {
  return task.agent_id ?? task.tool_id ?? task.function_id ?? '—';
}

export function TaskTable({ tasks, flagged }: { tasks: readonly PlannerTask[]; flagged: ReadonlySet<string> }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Tasks of this plan, in plan order</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">Task</th>
            <th scope="col" className="px-4 py-3 font-medium">Type</th>
            <th scope="col" className="px-4 py-3 font-medium">Target</th>
            <th scope="col" className="px-4 py-3 font-medium">Depends on</th>
            <th scope="col" className="px-4 py-3 font-medium">Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tasks.map((task, i) => (
            <tr key={`${task.task_id}-${i}`} className={flagged.has(task.task_id) ? 'bg-rose-50/60' : undefined}>
              <td className="max-w-md px-4 py-3 align-top">
                <div className="font-mono text-xs text-slate-500">{task.task_id}</div>
                <div className="mt-0.5 text-slate-900">{task.description || <em className="text-slate-400">No description</em>}</div>
                {task.mark_replan && (
                  <span className="mt-1 inline-block rounded bg-indigo-100 px-1.5 text-xs font-medium text-indigo-800">marked for replan</span>
                )}
              </td>
              <td className="px-4 py-3 align-top">
                <ExecutionTypeBadge type={task.execution_type} />
              </td>
              <td className="px-4 py-3 align-top font-mono text-xs text-slate-700">{target(task)}</td>
              <td className="px-4 py-3 align-top font-mono text-xs text-slate-600">
                {task.dependencies.length ? task.dependencies.join(', ') : '—'}
              </td>
              <td className="px-4 py-3 align-top text-slate-600">{task.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
