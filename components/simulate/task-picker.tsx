'use client';

import { useId, useMemo, useRef, useState } from 'react';

// Picks tasks out of thousands by typing: a combobox that lists the tasks whose name or id
// matches (at most MAX_OPTIONS at a time), with the picked ones as removable chips.

const MAX_OPTIONS = 50;
const MAX_CHIPS = 60;

export interface PickableTask {
  id: string;
  label: string;
}

export interface TaskPickerProps {
  label: string;
  tasks: readonly PickableTask[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  /** The picker names what picking a task does, for its help text. */
  hint?: string;
}

export function TaskPicker({ label, tasks, selected, onChange, hint }: TaskPickerProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const chosen = useMemo(() => new Set(selected), [selected]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t])), [tasks]);
  const { options, more } = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matches: PickableTask[] = [];
    let count = 0;
    for (const task of tasks) {
      if (q && !task.label.toLowerCase().includes(q) && !task.id.toLowerCase().includes(q)) continue;
      if (++count <= MAX_OPTIONS) matches.push(task);
    }
    return { options: matches, more: count - matches.length };
  }, [tasks, query]);

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
        aria-describedby={hint ? `${id}-hint` : undefined}
        aria-activedescendant={open && current ? `${id}-opt-${options.indexOf(current)}` : undefined}
        autoComplete="off"
        placeholder={`Search ${tasks.length.toLocaleString('en')} tasks by name or id`}
        value={query}
        className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm"
        onChange={(e) => {
          setQuery(e.target.value);
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
    </div>
  );
}
