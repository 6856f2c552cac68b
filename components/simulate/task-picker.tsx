'use client';

import { forwardRef, useId, useMemo, useState } from 'react';
import { searchTasks, type SearchableTask } from './task-picker-search';

// Picks tasks out of thousands by typing: a combobox that lists the tasks whose name, id or
// description holds the words typed (at most MAX_OPTIONS at a time), with the picked ones as
// removable chips. The text typed is the form's (controlled), so that a run can be refused
// while text is typed but nothing was picked for it.

const MAX_OPTIONS = 50;
const MAX_CHIPS = 60;

export type PickableTask = SearchableTask;

export interface TaskPickerProps {
  label: string;
  tasks: readonly PickableTask[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  /** The text typed into the search. */
  query: string;
  onQueryChange: (query: string) => void;
  /** Said under the field, which is then marked invalid (text typed but nothing picked for it). */
  error?: string | null;
  /** The picker names what picking a task does, for its help text. */
  hint?: string;
}

export const TaskPicker = forwardRef<HTMLInputElement, TaskPickerProps>(function TaskPicker({ label, tasks, selected, onChange, query, onQueryChange, error, hint }, input) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const chosen = useMemo(() => new Set(selected), [selected]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t])), [tasks]);
  const { options, more } = useMemo(() => {
    const { options, total } = searchTasks(tasks, query, MAX_OPTIONS);
    return { options, more: total - options.length };
  }, [tasks, query]);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  const toggle = (taskId: string) => onChange(chosen.has(taskId) ? selected.filter((s) => s !== taskId) : [...selected, taskId]);
  const current = options[Math.min(active, options.length - 1)];

  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="block">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {selected.length > 0 && (
        <ul aria-label={`${label}: picked`} className="mt-1 flex flex-wrap gap-1">
          {selected.slice(0, MAX_CHIPS).map((taskId) => (
            <li key={taskId} className="flex items-center gap-1 rounded bg-rose-50 px-1.5 py-0.5 text-xs text-rose-900 ring-1 ring-rose-200">
              <span className="max-w-[14rem] truncate" title={taskId}>
                {byId.get(taskId)?.label ?? taskId}
              </span>
              <button type="button" aria-label={`Remove ${byId.get(taskId)?.label ?? taskId}`} className="px-0.5 font-bold hover:text-rose-700" onClick={() => toggle(taskId)}>
                ×
              </button>
            </li>
          ))}
          {selected.length > MAX_CHIPS && <li className="text-xs text-slate-600">and {selected.length - MAX_CHIPS} more</li>}
          <li>
            <button type="button" className="text-xs text-brand-700 underline" onClick={() => onChange([])}>
              Clear all
            </button>
          </li>
        </ul>
      )}
      <input
        ref={input}
        id={`${id}-input`}
        type="text"
        role="combobox"
        aria-expanded={open && options.length > 0}
        aria-controls={open && options.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        aria-activedescendant={open && current ? `${id}-opt-${options.indexOf(current)}` : undefined}
        autoComplete="off"
        placeholder={`Search ${tasks.length.toLocaleString('en')} tasks by name, description or id`}
        value={query}
        className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm"
        onChange={(e) => {
          onQueryChange(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (options.length ? (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length : 0));
          } else if (e.key === 'Enter') {
            // Enter picks; it never submits the form from here.
            e.preventDefault();
            if (open && current) toggle(current.id);
          } else if (e.key === 'Escape') {
            setOpen(false);
          } else if (e.key === 'Backspace' && !query && selected.length) {
            onChange(selected.slice(0, -1));
          }
        }}
      />
      {open && (
        <div className="absolute z-30 mt-1 w-full rounded border border-slate-300 bg-white text-sm shadow-lg">
          {options.length > 0 && (
            <ul id={listId} role="listbox" aria-label={label} aria-multiselectable className="max-h-64 overflow-auto py-1">
              {options.map((task, i) => (
                <li
                  key={task.id}
                  id={`${id}-opt-${i}`}
                  role="option"
                  aria-selected={chosen.has(task.id)}
                  className={`flex cursor-pointer items-center gap-2 px-2 py-1 ${task === current ? 'bg-brand-50' : ''}`}
                  // Before the input's blur closes the list.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => toggle(task.id)}
                  onMouseEnter={() => setActive(i)}
                >
                  <span aria-hidden className="w-3 text-rose-700">
                    {chosen.has(task.id) ? '✓' : ''}
                  </span>
                  <span className="truncate">{task.label}</span>
                  {task.label !== task.id && <span className="ml-auto shrink-0 truncate font-mono text-[11px] text-slate-500">{task.id}</span>}
                </li>
              ))}
            </ul>
          )}
          {options.length === 0 && <p className="px-2 py-1 text-slate-500">No task matches “{query}”.</p>}
          {more > 0 && <p className="px-2 py-1 text-xs text-slate-500">{more.toLocaleString('en')} more match; type more to narrow them.</p>}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs font-medium text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
});
