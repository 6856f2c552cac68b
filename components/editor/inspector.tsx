'use client';

import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { EXECUTION_TYPES, executionKind, type PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { labelsOfPlan } from '@/lib/flow/task-label';
import { jsonDraftKey } from '@/lib/editor-store/editor-store';
import { requiresApproval } from '@/lib/runs/task-policy';
import { PlanComments, TaskComments } from '@/components/comments/task-comments';
import { useEditor, useEditorStore } from './editor-context';
import { DependencyPicker } from './dependency-picker';
import { Stage2Panel } from './stage2-panel';
import { tasksById } from '@/lib/plan/task-index';
import { SubgraphField } from './subgraph-field';

// Edits every PlannerTask field. Text fields apply on blur or Enter, so one edit of a
// field is one undo step rather than one per keystroke; invalid input shows an inline
// error and is not applied.

type Apply = (patch: Partial<PlannerTaskInput>) => string | null;

/** The task's parameters with `requires_approval` set, or removed (absent means no gate). */
function withApproval(parameters: PlannerTask['parameters'], required: boolean): PlannerTask['parameters'] {
  const { requires_approval: _, ...rest } = parameters;
  return required ? { ...rest, requires_approval: true } : rest;
}

function Field({ label, error, children, hint }: { label: string; error?: string | null; hint?: string; children: (id: string, describedBy?: string) => React.ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children(id, error ? errorId : undefined)}
      {hint && !error && <p className="text-[11px] text-slate-500">{hint}</p>}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}

const inputClass =
  'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50';

function TextField({
  label,
  value,
  apply,
  field,
  multiline,
  mono,
  disabled,
  autoFocus,
}: {
  label: string;
  value: string;
  apply: Apply;
  field: keyof PlannerTaskInput;
  multiline?: boolean;
  mono?: boolean;
  disabled: boolean;
  autoFocus?: boolean;
}) {
  // Only for a task just added: its first field is what the operator asked for.
  const textarea = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) textarea.current?.focus();
  }, [autoFocus]);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    // The task changed underneath (undo, another field): show the new value.
    setSeen(value);
    setDraft(value);
    setError(null);
  }
  const commit = () => {
    if (draft === value) return;
    const nullable = field !== 'description' && field !== 'status' && field !== 'main_task_id';
    setError(apply({ [field]: draft === '' && nullable ? null : draft }));
  };
  return (
    <Field label={label} error={error}>
      {(id, describedBy) =>
        multiline ? (
          <textarea
            id={id}
            ref={textarea}
            aria-describedby={describedBy}
            aria-invalid={!!error}
            disabled={disabled}
            className={`${inputClass} ${mono ? 'font-mono text-xs' : ''}`}
            rows={mono ? 6 : 3}
            value={draft}
            spellCheck={!mono}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
          />
        ) : (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={!!error}
            disabled={disabled}
            className={`${inputClass} ${mono ? 'font-mono text-xs' : ''}`}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => e.key === 'Enter' && commit()}
          />
        )
      }
    </Field>
  );
}

// Invalid JSON is kept in the store, not only in the field: the inspector is remounted
// for each selected task, and what was typed must be there, with its error, on return.
// Throwing it away is the operator's choice, asked first.
function JsonField({ taskId, label, value, apply, field, disabled }: { taskId: string; label: string; value: unknown; apply: Apply; field: 'parameters' | 'arguments' | 'estimate_data'; disabled: boolean }) {
  const store = useEditorStore();
  const text = value === null ? '' : JSON.stringify(value, null, 2);
  const kept = useEditor((s) => s.jsonDrafts[jsonDraftKey(taskId, field)]);
  const [draft, setDraft] = useState(kept?.text ?? text);
  const [seen, setSeen] = useState(text);
  const [error, setError] = useState<string | null>(kept?.error ?? null);
  const [discarding, setDiscarding] = useState(false);
  if (text !== seen) {
    // The task changed underneath (undo, another field): show the new value, unless the
    // operator's own invalid text is waiting here; that stays until applied or discarded.
    setSeen(text);
    if (!kept) {
      setDraft(text);
      setError(null);
    }
  }
  const keep = (message: string | null) => {
    setError(message);
    store.getState().setJsonDraft(taskId, field, message ? { text: draft, error: message } : null);
  };
  const commit = () => {
    if (draft === text) return keep(null);
    let parsed: unknown;
    try {
      parsed = draft.trim() === '' ? (field === 'estimate_data' ? null : {}) : JSON.parse(draft);
    } catch (e) {
      return keep(`Not valid JSON: ${(e as Error).message}`);
    }
    keep(apply({ [field]: parsed } as Partial<PlannerTaskInput>));
  };
  // Selecting another task can unmount the field without a blur: what was typed is applied, or kept, all the same.
  const commitRef = useRef(commit);
  useLayoutEffect(() => {
    commitRef.current = commit;
  });
  useEffect(() => () => commitRef.current(), []);
  const discard = () => {
    setDiscarding(false);
    setDraft(text);
    keep(null);
  };
  return (
    <div className="space-y-1">
      <Field label={label} error={error} hint={field === 'estimate_data' ? '{ "latency_ms": 1200, "cost_usd": 0.01, "tokens": 800 }' : undefined}>
        {(id, describedBy) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={!!error}
            disabled={disabled}
            className={`${inputClass} font-mono text-xs`}
            rows={Math.min(8, Math.max(2, draft.split('\n').length))}
            value={draft}
            spellCheck={false}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
          />
        )}
      </Field>
      {error && !disabled && draft !== text && !discarding && (
        <button type="button" className="text-xs font-medium text-slate-600 underline hover:text-slate-900" onClick={() => setDiscarding(true)}>
          Discard my text in {label}
        </button>
      )}
      {discarding && (
        <div role="group" aria-label={`Discard your text in ${label}?`} className="flex items-center gap-2 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-900">
          <span>Discard what you typed and show the saved value again?</span>
          <button type="button" className="rounded bg-rose-700 px-2 py-0.5 font-semibold text-white" onClick={discard}>
            Discard
          </button>
          <button type="button" autoFocus className="rounded border border-slate-300 bg-white px-2 py-0.5" onClick={() => setDiscarding(false)}>
            Keep it
          </button>
        </div>
      )}
    </div>
  );
}

type Reveal = (taskId: string) => void;

/** A task named in the inspector: clicking selects it and brings it into view on the canvas. */
function TaskLink({ id, label, onReveal }: { id: string; label: string; onReveal: Reveal }) {
  // min-w-0: a long name is cut here, never pushing its row's remove button out of the panel.
  return (
    <button type="button" title={label} className="min-w-0 truncate text-left text-brand-700 hover:underline" onClick={() => onReveal(id)}>
      {label}
    </button>
  );
}

function Dependencies({ task, disabled, onReveal }: { task: PlannerTask; disabled: boolean; onReveal: Reveal }) {
  const store = useEditorStore();
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const labels = labelsOfPlan(tasks);
  const candidates = tasks.filter((t) => t.task_id !== task.task_id && !task.dependencies.includes(t.task_id));
  return (
    // min-w-0: a fieldset is at least as wide as its widest row by default, and a long task
    // name would push the row's remove button out of the panel.
    <fieldset className="min-w-0 space-y-2">
      <legend className="text-xs font-medium text-slate-600">Depends on</legend>
      {task.dependencies.length === 0 && <p className="text-xs text-slate-500">Nothing: this task can start at once.</p>}
      <ul className="space-y-1">
        {task.dependencies.map((dep) => (
          <li key={dep} className="flex items-center justify-between gap-2 rounded bg-slate-50 px-2 py-1 text-xs">
            <TaskLink id={dep} label={labels.get(dep) ?? dep} onReveal={onReveal} />
            {!disabled && (
              <button
                type="button"
                aria-label={`Remove dependency on ${labels.get(dep) ?? dep}`}
                className="shrink-0 rounded px-1 text-slate-500 hover:bg-rose-100 hover:text-rose-700"
                onClick={() => store.getState().removeEdge(dep, task.task_id)}
              >
                ✕
              </button>
            )}
          </li>
        ))}
      </ul>
      {!disabled && candidates.length > 0 && (
        <DependencyPicker candidates={candidates} labels={labels} inputClass={inputClass} onAdd={(id) => store.getState().connect(id, task.task_id)} />
      )}
    </fieldset>
  );
}

/** The tasks that wait on this one: what a change here can hold up. */
function Dependents({ task, onReveal }: { task: PlannerTask; onReveal: Reveal }) {
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const dependents = tasks.filter((t) => t.dependencies.includes(task.task_id));
  const labels = labelsOfPlan(tasks);
  return (
    <section aria-labelledby="needed-by-title" className="space-y-2">
      <h3 id="needed-by-title" className="text-xs font-medium text-slate-600">
        Needed by
      </h3>
      {dependents.length === 0 ? (
        <p className="text-xs text-slate-500">No task waits on this one.</p>
      ) : (
        <ul aria-labelledby="needed-by-title" className="space-y-1">
          {dependents.map((t) => (
            <li key={t.task_id} className="rounded bg-slate-50 px-2 py-1 text-xs">
              <TaskLink id={t.task_id} label={labels.get(t.task_id) ?? t.task_id} onReveal={onReveal} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The plan's threads and those on removed tasks, when no task is selected. */
function PlanThreads() {
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  return <PlanComments taskIds={tasksById(tasks)} />;
}

/** The selected task's threads; a task not saved yet cannot be commented on. */
function TaskThreads({ task }: { task: PlannerTask }) {
  // Runs on every store change: a lookup in the saved document's index, built once per save.
  const saved = useEditor((s) => tasksById(s.savedDoc.plan.planned_tasks).has(task.task_id));
  const label = useEditor((s) => labelsOfPlan(s.doc.plan.planned_tasks).get(task.task_id) ?? task.task_id);
  return <TaskComments taskId={task.task_id} label={label} commentable={saved} />;
}

/** `focusDescriptionOf`: a task just added, whose inspector opens with its description focused. */
export function Inspector({ onReveal, focusDescriptionOf = null }: { onReveal: Reveal; focusDescriptionOf?: string | null }) {
  const store = useEditorStore();
  const selectedIds = useEditor((s) => s.selectedTaskIds);
  const readOnly = useEditor((s) => s.readOnly);
  // Runs on every store change (a drag frame, a keystroke): an index lookup, not a scan of 20,000 tasks.
  const task = useEditor((s) => (s.selectedTaskIds.length === 1 ? tasksById(s.doc.plan.planned_tasks).get(s.selectedTaskIds[0]) : undefined));
  // Another task's fields start at their top, not where the last task's were scrolled to.
  const aside = useRef<HTMLElement>(null);
  const shownId = task?.task_id;
  useLayoutEffect(() => {
    const scroller = aside.current?.parentElement;
    if (scroller) scroller.scrollTop = 0;
  }, [shownId]);
  if (!task) {
    return (
      <aside ref={aside} aria-label="Inspector" className="space-y-3 p-4 text-sm">
        <p className="text-slate-600">{selectedIds.length > 1 ? `${selectedIds.length} tasks selected.` : 'Select a task to see and edit its fields.'}</p>
        <PlanThreads />
      </aside>
    );
  }
  const apply: Apply = (patch) => store.getState().updateTask(task.task_id, patch);
  return (
    <aside ref={aside} aria-label="Inspector" className="space-y-3 overflow-y-auto p-4" key={task.task_id}>
      <header>
        <h2 className="text-sm font-semibold">Task</h2>
        <p className="font-mono text-[11px] text-slate-500">{task.task_id}</p>
      </header>
      <TaskThreads task={task} />
      <TextField
        label="Description"
        field="description"
        value={task.description ?? ''}
        apply={apply}
        multiline
        disabled={readOnly}
        autoFocus={!readOnly && focusDescriptionOf === task.task_id}
      />
      <Field label="Execution type">
        {(id) => (
          <select id={id} disabled={readOnly} className={inputClass} value={task.execution_type ?? ''} onChange={(e) => apply({ execution_type: e.target.value })}>
            {/* A spelling such as seed 000's l2_task is kept as stored, shown with the kind it routes to. */}
            {!EXECUTION_TYPES.includes(task.execution_type as never) && (
              <option value={task.execution_type ?? ''}>
                {task.execution_type ? (executionKind(task) !== task.execution_type ? `${task.execution_type} (${executionKind(task)})` : task.execution_type) : '(none)'}
              </option>
            )}
            {EXECUTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="grid grid-cols-1 gap-3">
        <TextField label="Agent id" field="agent_id" value={task.agent_id ?? ''} apply={apply} mono disabled={readOnly} />
        <TextField label="Tool id" field="tool_id" value={task.tool_id ?? ''} apply={apply} mono disabled={readOnly} />
        <TextField label="Function id" field="function_id" value={task.function_id ?? ''} apply={apply} mono disabled={readOnly} />
      </div>
      <Dependencies task={task} disabled={readOnly} onReveal={onReveal} />
      <Dependents task={task} onReveal={onReveal} />
      <SubgraphField taskId={task.task_id} disabled={readOnly} />
      <Stage2Panel task={task} readOnly={readOnly} />
      <JsonField taskId={task.task_id} label="Parameters (JSON)" field="parameters" value={task.parameters} apply={apply} disabled={readOnly} />
      <JsonField taskId={task.task_id} label="Arguments (JSON)" field="arguments" value={task.arguments} apply={apply} disabled={readOnly} />
      <TextField label="Instructions" field="instructions" value={task.instructions ?? ''} apply={apply} multiline disabled={readOnly} />
      <TextField label="Convertor code" field="convertor_code" value={task.convertor_code ?? ''} apply={apply} multiline mono disabled={readOnly} />
      <JsonField taskId={task.task_id} label="Estimate data (JSON)" field="estimate_data" value={task.estimate_data} apply={apply} disabled={readOnly} />
      <TextField label="Status" field="status" value={task.status} apply={apply} disabled={readOnly} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" disabled={readOnly} checked={task.mark_replan} onChange={(e) => apply({ mark_replan: e.target.checked })} />
        Mark for replanning
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" disabled={readOnly} checked={requiresApproval(task)} onChange={(e) => apply({ parameters: withApproval(task.parameters, e.target.checked) })} />
        Requires approval before it runs
      </label>
    </aside>
  );
}
