import { executionKind, type PlannerTask, type SubGraph } from '@/lib/plan';
import { ViewedCheckbox } from '@/components/review/task-views';
import { TableView, type DataColumn, type DataRow } from '@/components/ui/table-view';
import { FieldValue } from './task-fields';

// Every field of every task, one row each: what an approver signs. Short values inline,
// long ones (JSON, instructions, code) scroll or fold so the table stays compact.

function size(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const lines = text.split('\n').length;
  return lines > 1 ? `${lines} lines` : `${text.length} chars`;
}

function Folded({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= 80 && !text.includes('\n')) {
    return (
      <div>
        <span className="text-slate-500">{label}</span> <FieldValue value={value} />
      </div>
    );
  }
  return (
    <details>
      <summary className="cursor-pointer">
        <span className="text-slate-500">{label}</span> <span className="text-slate-500">({size(value)})</span>
      </summary>
      <FieldValue value={value} />
    </details>
  );
}

function Target({ task }: { task: PlannerTask }) {
  const targets = (['tool_id', 'agent_id', 'function_id'] as const).filter((field) => task[field] !== null && task[field] !== '');
  if (!targets.length) return <span className="italic text-slate-500">none</span>;
  return (
    <>
      {targets.map((field) => (
        <div key={field}>
          <span className="text-slate-500">{field}</span> <span className="break-words font-mono">{task[field]}</span>
        </div>
      ))}
    </>
  );
}

const COLUMNS: DataColumn[] = [
  { id: 'task', header: 'Task', rowHeader: true, className: 'max-w-56 font-normal' },
  { id: 'type', header: 'Type (kind)' },
  { id: 'target', header: 'Target', className: 'max-w-48' },
  { id: 'dependencies', header: 'Depends on', className: 'max-w-40 font-mono break-words' },
  { id: 'instructions', header: 'Instructions', className: 'max-w-72 min-w-40' },
  { id: 'fields', header: 'Inputs, code, estimates, state', className: 'max-w-80 min-w-48 space-y-0.5' },
];

function taskRow(task: PlannerTask, group: string | undefined): DataRow {
  const kind = executionKind(task);
  const { stage2, ...parameters } = task.parameters;
  return {
    key: task.task_id,
    className: 'align-top',
    cells: [
      <>
        <div className="flex items-start justify-between gap-2">
          <span className="break-words font-mono font-semibold">{task.task_id}</span>
          <ViewedCheckbox taskId={task.task_id} />
        </div>
        {task.description && <div className="text-slate-700">{task.description}</div>}
        {group !== undefined && (
          <div className="text-slate-500">
            group <span className="font-mono">{group}</span>
          </div>
        )}
      </>,
      <>
        <span className="font-mono">{task.execution_type || '(none)'}</span>
        {kind !== task.execution_type && <div className="text-slate-500">kind {kind || 'unknown'}</div>}
      </>,
      <Target key="target" task={task} />,
      task.dependencies.length ? task.dependencies.join(', ') : <span className="font-sans italic text-slate-500">none</span>,
      task.instructions ? <FieldValue value={task.instructions} /> : <span className="italic text-slate-500">none</span>,
      <>
        <Folded label="arguments" value={task.arguments} />
        <Folded label="parameters" value={parameters} />
        <Folded label="Stage 2 input" value={stage2} />
        <Folded label="convertor_code" value={task.convertor_code} />
        <Folded label="estimate_data" value={task.estimate_data} />
        <Folded label="main_task_id" value={task.main_task_id} />
        <Folded label="status" value={task.status} />
        <Folded label="mark_replan" value={task.mark_replan ? 'true' : ''} />
        <Folded label="output" value={task.output} />
        <Folded label="created" value={task.creation_time} />
        <Folded label="updated" value={task.last_update_time} />
      </>,
    ],
  };
}

/** `tasks` are the plan's first rows; `total` counts them all (the rest are in the plan's export). */
export function TaskTable({ tasks, total = tasks.length, subgraphs }: { tasks: PlannerTask[]; total?: number; subgraphs: SubGraph[] }) {
  const groupOf = new Map<string, string>();
  for (const s of subgraphs) for (const id of s.task_ids) if (!groupOf.has(id)) groupOf.set(id, s.subgraph_id);
  return (
    <div>
      {/* Scrolls in itself, under its header; focusable, so a keyboard can scroll it. */}
      <TableView
        variant="dense"
        label="Tasks and their fields"
        scroll={{ maxHeight: '75vh', label: 'Task table, scrolls' }}
        columns={COLUMNS}
        empty="The plan has no tasks."
        rows={tasks.map((task) => taskRow(task, groupOf.get(task.task_id)))}
      />
      {total > tasks.length && (
        <p className="mt-2 text-xs text-slate-600">
          The first {tasks.length.toLocaleString('en')} of {total.toLocaleString('en')} tasks are shown; export the plan to read the rest.
        </p>
      )}
    </div>
  );
}
