'use client';

import { forwardRef, memo, useEffect, useMemo, useState } from 'react';
import { labelsOfPlan, shortTag, splitDistinctLabel } from '@/lib/flow/task-label';
import { executionKind } from '@/lib/plan';
import { matchingTaskIds } from '@/lib/plan/task-search';
import { useCanvasFocus, useCanvasFocusStore } from './canvas-focus';
import { useEditor, useEditorStore } from './editor-context';

// The accessible way through the plan: every task, what it depends on, and a search
// that jumps to it. Large plans show the first matches only; search narrows them, and the
// canvas marks the matches and dims the rest; Enter and Shift+Enter step through them.
// Ctrl/Cmd/Shift+click builds a selection of several tasks (to replan, split or merge).
const MAX_ROWS = 300;
// Matching waits for a pause in typing, so the canvas redraws once per search, not per key.
const SEARCH_PAUSE_MS = 150;

function countText(total: number, matches: readonly string[] | null, current: number): string {
  if (!matches) return `${total} tasks`;
  const found = matches.length === 0 ? 'No matches' : `${matches.length} match${matches.length === 1 ? '' : 'es'}`;
  return current >= 0 ? `${found}, showing ${current + 1} of ${matches.length}` : found;
}

/** A task's name, cut to its row; the id that tells it from a task of the same name is never cut off. */
function TaskName({ label, taskId }: { label: string; taskId: string }) {
  const { name, tag } = splitDistinctLabel(label, taskId);
  if (!tag) return <span className="block truncate">{label}</span>;
  return (
    <span className="flex min-w-0 overflow-hidden">
      <span className="truncate">{name}</span>
      {/* A space that is not collapsed: the row's name reads "name (id)", not "name(id)". */}
      <span className="shrink-0 font-mono text-xs leading-5 text-slate-700">
        {'\u00a0'}
        {/* Read whole; drawn with its middle cut if long. */}
        <span className="sr-only">{tag}</span>
        <span aria-hidden>{shortTag(tag)}</span>
      </span>
    </span>
  );
}

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
  const focus = useCanvasFocusStore();
  const query = useCanvasFocus((s) => s.query);
  const found = useCanvasFocus((s) => s.matches);
  const matchSet = useCanvasFocus((s) => s.matchSet);
  const current = useCanvasFocus((s) => s.current);
  const [settled, setSettled] = useState(query);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(query), query.trim() ? SEARCH_PAUSE_MS : 0);
    return () => clearTimeout(timer);
  }, [query]);
  const matchIds = useMemo(() => matchingTaskIds(tasks, settled), [tasks, settled]);
  useEffect(() => focus.getState().setMatches(matchIds), [focus, matchIds]);
  const labels = labelsOfPlan(tasks);
  const matches = useMemo(() => (found ? tasks.filter((t) => matchSet.has(t.task_id)) : tasks), [tasks, found, matchSet]);
  const currentId = found?.[current];

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
          aria-keyshortcuts="Enter Shift+Enter Escape"
          value={query}
          onChange={(e) => focus.getState().setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              // The matches of what is typed now, set here rather than left to the effect above:
              // Enter straight after typing, or after the pause re-rendered but before that
              // effect ran, would otherwise step through the old matches (or none). The current
              // match stays current (setMatches keeps it), so Enter still steps on.
              focus.getState().setMatches(matchingTaskIds(tasks, query));
              setSettled(query);
              const id = focus.getState().step(e.shiftKey ? -1 : 1);
              if (id) onReveal(id);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              focus.getState().clearSearch();
            }
          }}
        />
        <p className="mt-1 text-[11px] text-slate-500" aria-live="polite">
          {countText(tasks.length, found, current)}
        </p>
      </div>
      <ul className="flex-1 overflow-y-auto" aria-label="Tasks">
        {matches.slice(0, MAX_ROWS).map((task, i) => (
          <li key={`${task.task_id}-${i}`} className="border-b border-slate-100">
            <button
              type="button"
              aria-current={selected.includes(task.task_id) ? 'true' : undefined}
              className={`block w-full px-3 py-2 text-left text-sm hover:bg-slate-50 ${selected.includes(task.task_id) ? 'bg-brand-50' : ''} ${task.task_id === currentId ? 'border-l-4 border-amber-500' : ''}`}
              onClick={(e) => (e.ctrlKey || e.metaKey || e.shiftKey ? toggle(task.task_id) : onReveal(task.task_id))}
            >
              <TaskName label={labels.get(task.task_id) ?? task.task_id} taskId={task.task_id} />
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
