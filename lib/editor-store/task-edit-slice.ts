import { buildGraphIndex } from '@/lib/graph';
import { checkConnection } from '@/lib/flow/connection-check';
import { PlanCommandError, addDependency, addTask, moveDependency, removeDependency, removeTasks, updateTask } from '@/lib/plan';
import type { TaskEditSlice } from './editor-state';
import { keepGrouping, refusalMessage, type Slice } from './slice-kit';
import { uniqueId } from './unique-id';

// Adding, changing and deleting tasks and the dependencies between them: each command is
// one undo step. A connection that would close a cycle is refused before it is tried, with
// the cycle to highlight.

export const taskEditSlice: Slice<TaskEditSlice> = ({ set, get, edit }) => {
  /** Whether from → to may be drawn (with `moving` taken away first), refusing it with a notice if not. */
  const allowed = (from: string, to: string, moving?: { from: string; to: string }) => {
    const tasks = get().doc.plan.planned_tasks;
    const check = checkConnection(tasks, buildGraphIndex(tasks), from, to, moving);
    if (!check.ok) set({ notice: { kind: 'refusal', message: check.message, taskIds: check.cycle } });
    return check.ok;
  };

  return {
    addTask(input = {}, position) {
      const taken = new Set(get().doc.plan.planned_tasks.map((t) => t.task_id));
      const id = input.task_id ?? uniqueId(`task-${taken.size + 1}`, taken);
      const ok = edit((doc) => addTask(doc, { description: 'New task', execution_type: 'agent', ...input, task_id: id }, position), {
        selectedTaskIds: [id],
        selectedEdgeId: null,
      });
      return ok ? id : null;
    },

    // The inspector shows a refusal beside the field, so it is returned rather than noticed.
    updateTask(taskId, patch) {
      if (get().readOnly) return 'This revision is read-only';
      // A dependency typed into the inspector is refused as a drawn one is: each new one checked
      // against the graph with the ones before it added.
      if (patch.dependencies) {
        let tasks = get().doc.plan.planned_tasks;
        const before = new Set(tasks.find((t) => t.task_id === taskId)?.dependencies ?? []);
        const known = new Set(tasks.map((t) => t.task_id));
        // Unknown ids are left to the command, which names them.
        for (const from of patch.dependencies.filter((dep) => !before.has(dep) && known.has(dep))) {
          const check = checkConnection(tasks, buildGraphIndex(tasks), from, taskId);
          if (!check.ok) return check.message;
          tasks = tasks.map((t) => (t.task_id === taskId ? { ...t, dependencies: [...t.dependencies, from] } : t));
        }
      }
      try {
        const next = keepGrouping(get().doc, updateTask(get().doc, taskId, patch));
        if (next !== get().doc) set({ doc: next });
        return null;
      } catch (error) {
        if (error instanceof PlanCommandError) return refusalMessage(error);
        throw error;
      }
    },

    deleteTasks(taskIds) {
      if (!taskIds.length) return;
      edit((doc) => removeTasks(doc, taskIds), { selectedTaskIds: [], selectedEdgeId: null });
    },

    connect(from, to) {
      return allowed(from, to) && edit((doc) => addDependency(doc, from, to), { selectedEdgeId: null });
    },

    moveEdge(edge, next) {
      if (edge.from === next.from && edge.to === next.to) return false;
      return allowed(next.from, next.to, edge) && edit((doc) => moveDependency(doc, edge, next), { selectedEdgeId: null });
    },

    removeEdge(from, to) {
      edit((doc) => removeDependency(doc, from, to), { selectedEdgeId: null });
    },

    deleteElements(taskIds, edges) {
      if (!taskIds.length && !edges.length) return;
      const doomed = new Set(taskIds);
      edit(
        (doc) => {
          let next = taskIds.length ? removeTasks(doc, taskIds) : doc;
          for (const { from, to } of edges) {
            if (!doomed.has(from) && !doomed.has(to)) next = removeDependency(next, from, to);
          }
          return next;
        },
        { selectedTaskIds: [], selectedEdgeId: null },
      );
    },
  };
};
