'use client';

import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { listTaskViewsAction, setTaskViewedAction } from '@/app/plans/[id]/review/view-actions';
import { ActionError } from '@/components/form/action-error';
import { useServerAction } from '@/components/query/use-server-action';

// The reviewer's "viewed" marks on the review page, like GitHub's viewed files: one query
// per (plan, revision) shared by every checkbox on the page, one mutation that changes a
// mark, and the ticked box shown at once (kept until the server's answer is read back).

interface TaskViews {
  viewed: ReadonlySet<string>;
  loaded: boolean;
  setViewed: (taskId: string, viewed: boolean) => void;
  error: string | null;
}

const TaskViewsContext = createContext<TaskViews | null>(null);

export const taskViewsKey = (planId: string, revision: number) => ['task-views', planId, revision] as const;

export function TaskViewsProvider({ planId, revision, children }: { planId: string; revision: number; children: React.ReactNode }) {
  const key = taskViewsKey(planId, revision);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const result = await listTaskViewsAction({ planId, revision });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });
  // Nothing on the server page depends on a mark, so the page is not refreshed.
  const change = useServerAction(setTaskViewedAction, { invalidate: [key], refresh: 'never' });
  const [pending, setPending] = useState<ReadonlyMap<string, boolean>>(new Map());
  const run = change.run;
  const setViewed = useCallback(
    (taskId: string, viewed: boolean) => {
      setPending((map) => new Map(map).set(taskId, viewed));
      void run({ planId, revision, taskId, viewed }).finally(() =>
        setPending((map) => {
          const next = new Map(map);
          next.delete(taskId);
          return next;
        }),
      );
    },
    [run, planId, revision],
  );
  const viewed = useMemo(() => {
    const set = new Set(query.data ?? []);
    for (const [taskId, mark] of pending) {
      if (mark) set.add(taskId);
      else set.delete(taskId);
    }
    return set;
  }, [query.data, pending]);
  const error = change.error ?? (query.error ? `The viewed marks could not be read: ${query.error.message}` : null);
  const value = useMemo(() => ({ viewed, loaded: query.isSuccess, setViewed, error }), [viewed, query.isSuccess, setViewed, error]);
  return <TaskViewsContext.Provider value={value}>{children}</TaskViewsContext.Provider>;
}

/** "Viewed" for one task; nothing outside a review page (the revisions page shows the same diff). */
export function ViewedCheckbox({ taskId }: { taskId: string }) {
  const views = useContext(TaskViewsContext);
  if (!views) return null;
  const checked = views.viewed.has(taskId);
  return (
    <label className="inline-flex shrink-0 cursor-pointer items-center gap-1 rounded border border-slate-300 px-1.5 py-0.5 text-xs text-slate-700 has-[:checked]:bg-slate-100">
      <input
        type="checkbox"
        aria-label={`Viewed ${taskId}`}
        checked={checked}
        disabled={!views.loaded}
        onChange={(event) => views.setViewed(taskId, event.target.checked)}
        className="h-3.5 w-3.5 accent-brand-600"
      />
      Viewed
    </label>
  );
}

/**
 * A diff entry's body, folded away once its task is marked viewed (the heading and the
 * checkbox stay), with a button to read it again.
 */
export function ViewedFold({ taskId, children }: { taskId: string; children: React.ReactNode }) {
  const views = useContext(TaskViewsContext);
  const viewed = views?.viewed.has(taskId) ?? false;
  const [open, setOpen] = useState(false);
  // Ticking "Viewed" folds the entry again even if it had been opened before.
  const [wasViewed, setWasViewed] = useState(viewed);
  if (wasViewed !== viewed) {
    setWasViewed(viewed);
    setOpen(false);
  }
  if (!viewed) return <>{children}</>;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} fields of ${taskId}`}
        onClick={() => setOpen((o) => !o)}
        className="mt-1 text-xs text-brand-700 underline hover:text-brand-800"
      >
        {open ? 'Hide' : 'Show'} fields
      </button>
      {open && children}
    </>
  );
}

/** "3 of 12 tasks viewed": how far this reviewer has read this revision. */
export function ViewedProgress({ total }: { total: number }) {
  const views = useContext(TaskViewsContext);
  if (!views) return null;
  const count = Math.min(views.viewed.size, total);
  return (
    <div className="text-sm">
      <p role="status" className="text-slate-700">
        {views.loaded ? `${count} of ${total} task${total === 1 ? '' : 's'} viewed` : `Reading your viewed marks for ${total} task${total === 1 ? '' : 's'}…`}
      </p>
      <ActionError message={views.error} />
    </div>
  );
}
