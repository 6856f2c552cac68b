import { PlanCommandError, type PlanDocument, type PlannerTask } from '@/lib/plan';
import { groupingError, resyncSubgraphs } from '@/lib/optimize/subgraph-edits';
import type { EditorInit, EditorState } from './editor-state';

// What every slice is built with: the store's set and get, the one way a command changes
// the document, and the undo history's controls. A command makes at most one change to
// `doc`, hence at most one undo step; everything else a slice sets is UI state, which undo
// never tracks.

export type SetState = (partial: Partial<EditorState>) => void;

export interface History {
  pause(): void;
  resume(): void;
  clear(): void;
}

export interface SliceKit {
  init: EditorInit;
  set: SetState;
  get: () => EditorState;
  /**
   * Applies one domain command, with `after` (UI state) set alongside. A refused command
   * becomes a visible notice, not a change; a command that changed nothing is no edit.
   */
  edit(fn: (doc: PlanDocument) => PlanDocument, after?: Partial<EditorState>): boolean;
  /** Available once the store exists; commands only call it from then on. */
  history: History;
}

/** Builds one slice's initial state and commands from the kit. */
export type Slice<T> = (kit: SliceKit) => T;

/** Commands whose refusals protect the subgraph invariants, shown as refusals rather than errors. */
const GROUPING_COMMANDS = new Set(['grouping', 'setSubgraphs', 'moveTasksToSubgraph', 'splitSubgraph', 'mergeSubgraphs']);

/** A refused command's message without the command name lib/plan puts first. */
export function refusalMessage(error: PlanCommandError): string {
  return error.message.replace(/^\w+: /, '');
}

export function makeKit(init: EditorInit, set: SetState, get: () => EditorState, history: History): SliceKit {
  const edit: SliceKit['edit'] = (fn, after) => {
    if (get().readOnly) return false;
    try {
      const before = get().doc;
      const next = keepGrouping(before, fn(before));
      set(next === get().doc ? { notice: null, ...after } : { doc: next, notice: null, ...after });
      return true;
    } catch (error) {
      if (!(error instanceof PlanCommandError)) throw error;
      set({ notice: { kind: GROUPING_COMMANDS.has(error.command) ? 'refusal' : 'error', message: refusalMessage(error), taskIds: [] } });
      return false;
    }
  };
  return { init, set, get, edit, history };
}

/** Same task ids and dependencies (by reference, as edit commands keep them when untouched): a text edit cannot affect the grouping. */
function sameGraph(a: readonly PlannerTask[], b: readonly PlannerTask[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.task_id !== b[i]!.task_id || a[i]!.dependencies !== b[i]!.dependencies) return false;
  }
  return true;
}

/**
 * A grouped plan's grouping follows task and dependency edits (new tasks get a subgraph
 * of their own, depends_on is derived again); an edit that would make subgraphs wait on
 * each other is refused, as a dependency cycle is.
 */
export function keepGrouping(before: PlanDocument, next: PlanDocument): PlanDocument {
  if (next.subgraphs.length === 0 || sameGraph(before.plan.planned_tasks, next.plan.planned_tasks)) return next;
  const synced = resyncSubgraphs(next);
  const error = groupingError(synced.plan.planned_tasks, synced.subgraphs);
  if (error && !groupingError(before.plan.planned_tasks, before.subgraphs)) throw new PlanCommandError('grouping', error);
  return synced;
}
