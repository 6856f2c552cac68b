'use client';

import { GROUP_BY, GROUP_BY_LABEL, type GroupBy } from '@/lib/flow/overview';
import { ToggleGroup } from '@/components/form/toggle-group';
import { useCanvasFocus, useCanvasFocusStore } from './canvas-focus';
import { useEditorStore } from './editor-context';

/** Tasks shown when the task canvas opens from the overview with nothing selected: the start of the plan. */
const FIRST_TASKS = 30;

const CANVAS_VIEWS = [
  { value: 'tasks', label: 'Tasks' },
  { value: 'overview', label: 'Overview' },
] as const;

/** "Tasks" / "Overview", and in the overview what its aggregates are grouped by. */
export function ViewSwitch() {
  const store = useEditorStore();
  const focus = useCanvasFocusStore();
  const view = useCanvasFocus((s) => s.view);
  const groupBy = useCanvasFocus((s) => s.groupBy);
  const showTasks = () => {
    const { selectedTaskIds, doc } = store.getState();
    focus.getState().setView('tasks', selectedTaskIds.length ? selectedTaskIds : doc.plan.planned_tasks.slice(0, FIRST_TASKS).map((t) => t.task_id));
  };
  return (
    <>
      <ToggleGroup label="Canvas view" options={CANVAS_VIEWS} value={view} onChange={(chosen) => (chosen === 'tasks' ? showTasks() : focus.getState().setView('overview'))} />
      {view === 'overview' && (
        <label className="flex items-center gap-1 text-xs text-slate-700">
          Group by
          <select
            className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs"
            value={groupBy}
            onChange={(e) => focus.getState().setGroupBy(e.target.value as GroupBy)}
          >
            {GROUP_BY.map((g) => (
              <option key={g} value={g}>
                {GROUP_BY_LABEL[g]}
              </option>
            ))}
          </select>
        </label>
      )}
    </>
  );
}
