'use client';

import { useDeferredValue, useId, useMemo } from 'react';

export interface CommentTask {
  id: string;
  label: string;
}

// A plan can hold 20,000 tasks: the suggestions are the first matches of what was typed,
// never one option per task.
const MAX_SUGGESTIONS = 50;

const FIELD =
  'block w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500';

/** Finds tasks by what a reader types: an exact id, else the one task with that name (any case). */
export function useTaskFinder(tasks: CommentTask[]) {
  return useMemo(() => {
    const byId = new Map(tasks.map((task) => [task.id, task]));
    const byLabel = new Map<string, CommentTask | null>();
    for (const task of tasks) {
      const key = task.label.toLowerCase();
      // Two tasks with one name: only the id tells them apart.
      byLabel.set(key, byLabel.has(key) ? null : task);
    }
    return (text: string): CommentTask | undefined => {
      const wanted = text.trim();
      return byId.get(wanted) ?? byLabel.get(wanted.toLowerCase()) ?? undefined;
    };
  }, [tasks]);
}

function suggestionsFor(tasks: CommentTask[], text: string): CommentTask[] {
  const wanted = text.trim().toLowerCase();
  const found: CommentTask[] = [];
  for (const task of tasks) {
    if (!wanted || task.id.toLowerCase().includes(wanted) || task.label.toLowerCase().includes(wanted)) found.push(task);
    if (found.length >= MAX_SUGGESTIONS) break;
  }
  return found;
}

/** "About": a text box with up to 50 suggested tasks; empty means the whole plan. */
export function TaskPicker({ tasks, value, onChange, chosen }: { tasks: CommentTask[]; value: string; onChange: (text: string) => void; chosen: CommentTask | undefined }) {
  const id = useId();
  const typed = useDeferredValue(value);
  const suggestions = useMemo(() => suggestionsFor(tasks, typed), [tasks, typed]);
  const unknown = value.trim() !== '' && !chosen;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-medium text-slate-700">
        About
      </label>
      <input
        id={id}
        type="text"
        list={`${id}-tasks`}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={unknown}
        aria-describedby={`${id}-hint`}
        className={FIELD}
      />
      <datalist id={`${id}-tasks`}>
        {suggestions.map((task) => (
          <option key={task.id} value={task.id}>
            {task.label === task.id ? undefined : task.label}
          </option>
        ))}
      </datalist>
      <p id={`${id}-hint`} className={`text-xs ${unknown ? 'text-rose-700' : 'text-slate-600'}`}>
        {unknown
          ? `No task has the id or name “${value.trim()}”; pick one of the suggestions, or clear the box to comment on the whole plan.`
          : chosen
            ? `On task ${chosen.label === chosen.id ? chosen.id : `${chosen.label} (${chosen.id})`}.`
            : 'On the whole plan. Type a task’s id or name to comment on that task.'}
      </p>
    </div>
  );
}
