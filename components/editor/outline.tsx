'use client';

import { forwardRef, memo, useDeferredValue, useMemo, useState } from 'react';
import { taskLabel } from '@/lib/flow/task-label';
import { executionKind } from '@/lib/plan';
import { useEditor, useEditorStore } from './editor-context';

// The accessible way through the plan: every task, what it depends on, and a search
// that jumps to it. Large plans show the first matches only; search narrows them.
// Ctrl/Cmd/Shift+click builds a selection of several tasks (to replan, split or merge).
const MAX_ROWS = 300;

export const Outline = memo(
  forwardRef<HTMLInputElement, { onReveal: (taskId: string) => void }>(function Outline({ onReveal }, searchRef) {
  const store = useEditorStore();
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const selected = useEditor((s) => s.selectedTaskIds);
  // Ctrl/Cmd/Shift+click adds a task to the selection (or takes it out), as on the canvas.
  const toggle = (taskId: string) => {
    const current = store.getState().selectedTaskIds;
    store.getState().select(current.includes(taskId) ? current.filter((id) => id !== taskId) : [...current, taskId]);
  };
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const labels = useMemo(() => new Map(tasks.map((t) => [t.task_id, taskLabel(t)])), [tasks]);
  const matches = useMemo(() => {
    const q = deferred.trim().toLowerCase();
    if (!q) return tasks;
    return tasks.filter((t) => t.task_id.toLowerCase().includes(q) || (t.description ?? '').toLowerCase().includes(q));
  }, [tasks, deferred]);

  return (
    <nav aria-label="Outline" className="flex h-full flex-col">
      <div className="border-b border-slate-200 p-3">
        <label htmlFor="outline-search" className="sr-only">
          Find a task
        </label>
        <input
          id="outline-search"
          ref={searchRef}
          type="search"
          placeholder="Find a task (Ctrl+K)"
          className="w-full rounded border border-slate-300 px-2 py-1 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && matches[0]) onReveal(matches[0].task_id);
          }}
        />
        <p className="mt-1 text-[11px] text-slate-500" aria-live="polite">
          {matches.length === tasks.length ? `${tasks.length} tasks` : `${matches.length} of ${tasks.length} tasks`}
        </p>
      </div>
      <ul className="flex-1 overflow-y-auto" aria-label="Tasks">
        {matches.slice(0, MAX_ROWS).map((task, i) => (
          <li key={`${task.task_id}-${i}`} className="border-b border-slate-100">
            <button
              type="button"
              aria-current={selected.includes(task.task_id) ? 'true' : undefined}
              className={`block w-full px-3 py-2 text-left text-sm hover:bg-slate-50 ${selected.includes(task.task_id) ? 'bg-brand-50' : ''}`}
              onClick={(e) => (e.ctrlKey || e.metaKey || e.shiftKey ? toggle(task.task_id) : onReveal(task.task_id))}
            >
              <span className="block truncate">{labels.get(task.task_id)}</span>
              <span className="block truncate text-[11px] text-slate-600">
                {executionKind(task) || 'no type'}
                {task.dependencies.length > 0 && ` · after ${task.dependencies.map((d) => labels.get(d) ?? d).join(', ')}`}
              </span>
            </button>
          </li>
        ))}
        {matches.length > MAX_ROWS && (
          <li className="px-3 py-2 text-xs text-slate-500">{matches.length - MAX_ROWS} more: refine the search to see them.</li>
        )}
      </ul>
    </nav>
  );
}),
);
