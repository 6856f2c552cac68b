'use client';

import { useDeferredValue, useState } from 'react';
import type { PlannerTask } from '@/lib/plan';
import { normaliseQuery, taskMatches } from '@/lib/plan/task-search';

/** Up to this many tasks to choose from are listed whole; a bigger plan's list is searched first. */
export const LISTED_WHOLE = 300;
/** How many matches of a search are listed. */
export const LISTED_MATCHES = 100;

/** The tasks listed for `query`: every candidate in a small plan, else the first that the outline's search would find. */
export function listedCandidates(candidates: readonly PlannerTask[], query: string): { listed: PlannerTask[]; more: number } {
  if (candidates.length <= LISTED_WHOLE) return { listed: [...candidates], more: 0 };
  const matching = normaliseQuery(query) ? candidates.filter((t) => taskMatches(t, query)) : candidates;
  return { listed: matching.slice(0, LISTED_MATCHES), more: Math.max(0, matching.length - LISTED_MATCHES) };
}

/**
 * Picks a task for the inspected one to depend on. A list of a 10,000-task plan's every other
 * task was 10,000 options: building and laying them out was most of the time a big plan took to
 * open at a task, and again on each edit of it. Past LISTED_WHOLE candidates a search field
 * narrows the list, which shows the first LISTED_MATCHES matches.
 */
export function DependencyPicker({ candidates, labels, inputClass, onAdd }: { candidates: readonly PlannerTask[]; labels: ReadonlyMap<string, string>; inputClass: string; onAdd: (taskId: string) => boolean }) {
  const [choice, setChoice] = useState('');
  const [query, setQuery] = useState('');
  const searched = useDeferredValue(query);
  const searchable = candidates.length > LISTED_WHOLE;
  const { listed, more } = listedCandidates(candidates, searched);
  // A choice the search no longer lists is not kept: "Add" adds what the list shows.
  const chosen = listed.some((t) => t.task_id === choice) ? choice : '';
  return (
    <div className="space-y-1">
      {searchable && (
        <input
          type="search"
          aria-label="Search tasks to depend on"
          placeholder={`Find one of ${candidates.length.toLocaleString('en-US')} tasks…`}
          className={inputClass}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      )}
      <div className="flex gap-2">
        <select aria-label="Task to depend on" className={`${inputClass} min-w-0`} value={chosen} onChange={(e) => setChoice(e.target.value)}>
          <option value="">{listed.length === 0 ? 'No task matches' : 'Add a dependency…'}</option>
          {listed.map((t) => (
            <option key={t.task_id} value={t.task_id}>
              {labels.get(t.task_id)}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={!chosen}
          className="shrink-0 rounded border border-slate-300 px-2 text-xs font-medium hover:bg-slate-50 disabled:opacity-50"
          onClick={() => {
            if (onAdd(chosen)) setChoice('');
          }}
        >
          Add
        </button>
      </div>
      {more > 0 && <p className="text-[11px] text-slate-500">{`${more.toLocaleString('en-US')} more match: type to narrow the list.`}</p>}
    </div>
  );
}
