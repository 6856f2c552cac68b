import type { Registry } from '@/lib/registry';
import { temporal } from 'zundo';
import { createStore } from 'zustand/vanilla';
import { buildGraphIndex } from '@/lib/graph';
import { checkConnection } from '@/lib/flow/connection-check';
import {
  PlanCommandError,
  addDependency,
  addTask,
  moveDependency,
  removeDependency,
  removeTasks,
  setPositions,
  updateTask,
  type PlanDocument,
  type PlannerTask,
  type PlannerTaskInput,
} from '@/lib/plan';
import { groupingError, mergeSubgraphs, subgraphsHolding, moveTasksToSubgraph, resyncSubgraphs, setSubgraphs, splitSubgraph, type Grouping } from '@/lib/optimize/subgraph-edits';
import { copyTasks, pasteTasks, type ClipboardContent } from './clipboard';
import type { ApprovalGuard } from './approval-guard';
import { uniqueId } from './unique-id';

// One store per open editor. `doc` is the domain slice and the only thing undo tracks;
// everything else (selection, messages, clipboard, save state) is UI state
// and never becomes an undo step. Each command below is one user intent and makes at most
// one change to `doc`, hence exactly one undo step.

type Position = { x: number; y: number };

/** Presses of the arrow keys closer together than this are one move, hence one undo step. */
export const NUDGE_BURST_MS = 500;

export interface Notice {
  kind: 'refusal' | 'error' | 'info';
  message: string;
  /** Tasks to highlight, e.g. the cycle a refused connection would have closed. */
  taskIds: string[];
}

/** Text typed into a task's JSON field that is not valid JSON, with the reason: kept until applied or discarded. */
export interface JsonDraft {
  text: string;
  error: string;
}

/** The key of a JSON draft: one per task and field. */
export function jsonDraftKey(taskId: string, field: string): string {
  return `${taskId}\u0000${field}`;
}

export interface EditorState {
  planId: string;
  readOnly: boolean;
  /** The resource registry live validation checks targets and parameters against. */
  registry: Registry | undefined;
  doc: PlanDocument;
  /** The revision this editor's edits are based on, and the document as saved there. */
  baseRevision: number;
  savedDoc: PlanDocument;
  /** The revision this editor saved last, if any: a head it made itself is no news to it. */
  savedHere: number | null;

  selectedTaskIds: string[];
  selectedEdgeId: string | null;
  notice: Notice | null;
  clipboard: ClipboardContent | null;
  /** Subgraphs drawn as one node. Saved with the view, but collapsing is not an edit. */
  collapsed: string[];
  /** The approval or review that a content-changing save of this plan would void; null when none stands. */
  approval: ApprovalGuard | null;
  /** Invalid JSON typed into inspector fields, by jsonDraftKey, so that selecting another task does not lose it. */
  jsonDrafts: Record<string, JsonDraft>;

  select(taskIds: string[]): void;
  selectEdge(edgeId: string | null): void;
  setNotice(notice: Notice | null): void;
  /** Keeps (or, with null, forgets) what was typed into a JSON field; never an undo step. */
  setJsonDraft(taskId: string, field: string, draft: JsonDraft | null): void;

  addTask(input?: Partial<PlannerTaskInput>, position?: Position): string | null;
  updateTask(taskId: string, patch: Partial<PlannerTaskInput>): string | null;
  deleteTasks(taskIds: string[]): void;
  connect(from: string, to: string): boolean;
  moveEdge(edge: { from: string; to: string }, next: { from: string; to: string }): boolean;
  removeEdge(from: string, to: string): void;
  /** Deletes tasks (with their edges) and edges together, as one step. */
  deleteElements(taskIds: string[], edges: Array<{ from: string; to: string }>): void;
  moveTasks(positions: Record<string, Position>): void;
  /** Moves the selected tasks by (dx, dy); presses within NUDGE_BURST_MS of each other are one undo step. */
  nudgeSelection(dx: number, dy: number, now?: number): void;
  applyLayout(positions: Record<string, Position>, options: { undoable: boolean }): void;
  copySelection(): void;
  paste(): void;
  duplicateSelection(): void;

  /** Replaces the grouping (an optimiser's proposal), refused if it breaks an invariant. */
  applyGrouping(groups: Grouping, message: string): boolean;
  clearSubgraphs(): void;
  /** Moves tasks into a subgraph (with the positions they were dropped at), as one step. */
  moveToSubgraph(taskIds: string[], subgraphId: string, positions?: Record<string, Position>): boolean;
  /** Moves the selected tasks out of their subgraph into a new one. */
  splitSelection(): boolean;
  /** Merges the subgraphs holding the selected tasks into one. */
  mergeSelection(): boolean;
  toggleCollapsed(subgraphId: string): void;
  setAllCollapsed(collapsed: boolean): void;
  /** Expands the subgraphs holding these tasks, so that they can be shown. */
  expandToShow(taskIds: string[]): void;

  /** A revision made elsewhere from this editor's saved one (an applied replan): one undo step, already saved. */
  applySavedRevision(doc: PlanDocument, revision: number): void;

  /** The server's word on what stands on the head revision (a fresh page render). */
  setApproval(approval: ApprovalGuard | null): void;
  /**
   * `sent` is the document that was saved; edits made while saving stay unsaved. A save
   * that was not layout-only voided any approval or review, so the guard goes with it.
   */
  markSaved(revision: number, sent: PlanDocument, options?: { layoutOnly: boolean }): void;
  loadRevision(doc: PlanDocument, revision: number): void;
  /**
   * Moves this editor onto a newer revision saved elsewhere (`theirs`) with the unsaved
   * edits merged into it (`merged`, see lib/plan/merge). Still unsaved; one undo step,
   * which goes back to `theirs` as saved, never to the draft on the old base.
   */
  rebase(theirs: PlanDocument, revision: number, merged: PlanDocument): void;
}

export interface EditorInit {
  planId: string;
  revision: number;
  doc: PlanDocument;
  readOnly: boolean;
  registry?: Registry;
  approval?: ApprovalGuard | null;
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

/** The collapsed ids that still name a subgraph of `doc`. */
function liveCollapsed(doc: PlanDocument, collapsed: readonly string[]): string[] {
  if (collapsed.length === 0) return [];
  const ids = new Set(doc.subgraphs.map((sg) => sg.subgraph_id));
  return collapsed.filter((id) => ids.has(id));
}

/** Commands whose refusals protect the subgraph invariants, shown as refusals rather than errors. */
const GROUPING_COMMANDS = new Set(['grouping', 'setSubgraphs', 'moveTasksToSubgraph', 'splitSubgraph', 'mergeSubgraphs']);

/**
 * A grouped plan's grouping follows task and dependency edits (new tasks get a subgraph
 * of their own, depends_on is derived again); an edit that would make subgraphs wait on
 * each other is refused, as a dependency cycle is.
 */
function keepGrouping(before: PlanDocument, next: PlanDocument): PlanDocument {
  if (next.subgraphs.length === 0 || sameGraph(before.plan.planned_tasks, next.plan.planned_tasks)) return next;
  const synced = resyncSubgraphs(next);
  const error = groupingError(synced.plan.planned_tasks, synced.subgraphs);
  if (error && !groupingError(before.plan.planned_tasks, before.subgraphs)) throw new PlanCommandError('grouping', error);
  return synced;
}

export function createEditorStore(init: EditorInit) {
  // The history API exists only once the store does; commands reach it through this.
  const history = { pause: () => {}, resume: () => {}, clear: () => {} };
  // The document the last arrow-key press left, and when: a press that finds both still
  // current continues that burst instead of making a new undo step.
  let nudged: { doc: PlanDocument; at: number } | null = null;
  const store = createStore<EditorState>()(
    temporal(
      (set, get) => {
        /** Applies one domain command; a refused command becomes a visible notice, not a change. */
        const edit = (fn: (doc: PlanDocument) => PlanDocument, after?: Partial<EditorState>): boolean => {
          if (get().readOnly) return false;
          try {
            const before = get().doc;
            const next = keepGrouping(before, fn(before));
            // A command that changed nothing is not an edit: no undo step, no unsaved state.
            set(next === get().doc ? { notice: null, ...after } : { doc: next, notice: null, ...after });
            return true;
          } catch (error) {
            if (!(error instanceof PlanCommandError)) throw error;
            set({ notice: { kind: GROUPING_COMMANDS.has(error.command) ? 'refusal' : 'error', message: error.message.replace(/^\w+: /, ''), taskIds: [] } });
            return false;
          }
        };
        /** Collapses subgraphs; their tasks leave the selection, since a hidden task cannot be seen to be acted on. */
        const collapse = (collapsed: string[]) => {
          const hidden = new Set(collapsed);
          const hiddenTasks = new Set(get().doc.subgraphs.filter((sg) => hidden.has(sg.subgraph_id)).flatMap((sg) => sg.task_ids));
          set({ collapsed, selectedTaskIds: get().selectedTaskIds.filter((id) => !hiddenTasks.has(id)) });
        };
        /** Adds copies of the clipboard's tasks under fresh ids, selected, as one step. */
        const insertCopies = (clip: ClipboardContent) => {
          const { tasks, positions } = pasteTasks(get().doc, clip);
          edit(
            (doc) => tasks.reduce((next, task) => addTask(next, task, positions[task.task_id]), doc),
            { selectedTaskIds: tasks.map((t) => t.task_id), selectedEdgeId: null },
          );
        };
        const verdict = (from: string, to: string, moving?: { from: string; to: string }) => {
          const tasks = get().doc.plan.planned_tasks;
          return checkConnection(tasks, buildGraphIndex(tasks), from, to, moving);
        };

        return {
          planId: init.planId,
          readOnly: init.readOnly,
          registry: init.registry,
          doc: init.doc,
          baseRevision: init.revision,
          savedDoc: init.doc,
          savedHere: null,
          selectedTaskIds: [],
          selectedEdgeId: null,
          notice: null,
          clipboard: null,
          collapsed: liveCollapsed(init.doc, init.doc.view.collapsed),
          approval: init.approval ?? null,
          jsonDrafts: {},

          select: (taskIds) => set({ selectedTaskIds: taskIds, selectedEdgeId: null }),
          selectEdge: (edgeId) => set({ selectedEdgeId: edgeId, selectedTaskIds: edgeId ? [] : get().selectedTaskIds }),
          setNotice: (notice) => set({ notice }),
          setJsonDraft(taskId, field, draft) {
            const key = jsonDraftKey(taskId, field);
            const { [key]: current, ...rest } = get().jsonDrafts;
            if (!draft) {
              if (current) set({ jsonDrafts: rest });
            } else if (current?.text !== draft.text || current.error !== draft.error) {
              set({ jsonDrafts: { ...rest, [key]: draft } });
            }
          },

          addTask(input = {}, position) {
            const taken = new Set(get().doc.plan.planned_tasks.map((t) => t.task_id));
            const id = input.task_id ?? uniqueId(`task-${taken.size + 1}`, taken);
            const ok = edit((doc) => addTask(doc, { description: 'New task', execution_type: 'agent', ...input, task_id: id }, position), {
              selectedTaskIds: [id],
              selectedEdgeId: null,
            });
            return ok ? id : null;
          },

          updateTask(taskId, patch) {
            if (get().readOnly) return 'This revision is read-only';
            try {
              const next = keepGrouping(get().doc, updateTask(get().doc, taskId, patch));
              if (next !== get().doc) set({ doc: next });
              return null;
            } catch (error) {
              if (error instanceof PlanCommandError) return error.message.replace(/^\w+: /, '');
              throw error;
            }
          },

          deleteTasks(taskIds) {
            if (!taskIds.length) return;
            edit((doc) => removeTasks(doc, taskIds), { selectedTaskIds: [], selectedEdgeId: null });
          },

          connect(from, to) {
            const check = verdict(from, to);
            if (!check.ok) {
              set({ notice: { kind: 'refusal', message: check.message, taskIds: check.cycle } });
              return false;
            }
            return edit((doc) => addDependency(doc, from, to), { selectedEdgeId: null });
          },

          moveEdge(edge, next) {
            if (edge.from === next.from && edge.to === next.to) return false;
            const check = verdict(next.from, next.to, edge);
            if (!check.ok) {
              set({ notice: { kind: 'refusal', message: check.message, taskIds: check.cycle } });
              return false;
            }
            return edit((doc) => moveDependency(doc, edge, next), { selectedEdgeId: null });
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

          moveTasks(positions) {
            edit((doc) => setPositions(doc, positions));
          },

          nudgeSelection(dx, dy, now = Date.now()) {
            const { doc, selectedTaskIds, readOnly } = get();
            if (readOnly) return;
            const positions: Record<string, Position> = {};
            for (const id of selectedTaskIds) {
              const at = doc.view.positions[id];
              if (at) positions[id] = { x: at.x + dx, y: at.y + dy };
            }
            if (Object.keys(positions).length === 0) return;
            const continuing = nudged !== null && nudged.doc === doc && now - nudged.at < NUDGE_BURST_MS;
            // Later presses of a burst amend the step the first one made, so undo takes the whole burst back.
            if (continuing) history.pause();
            try {
              edit((current) => setPositions(current, positions));
            } finally {
              if (continuing) history.resume();
            }
            nudged = { doc: get().doc, at: now };
          },

          applyLayout(positions, { undoable }) {
            if (undoable) {
              edit((doc) => setPositions(doc, positions));
              return;
            }
            // Laying out a plan that was opened without positions is not an edit: it is
            // neither an undo step nor an unsaved change. If the operator already edited
            // before it arrived, it becomes an ordinary step, so undo never loses positions.
            const store = get();
            const wasClean = store.doc === store.savedDoc;
            if (!wasClean) {
              edit((doc) => setPositions(doc, positions));
              return;
            }
            const doc = setPositions(store.doc, positions);
            history.pause();
            set({ doc, savedDoc: doc });
            history.resume();
          },

          copySelection() {
            const clip = copyTasks(get().doc, new Set(get().selectedTaskIds));
            if (clip) set({ clipboard: clip, notice: { kind: 'info', message: `Copied ${clip.tasks.length} task${clip.tasks.length === 1 ? '' : 's'}`, taskIds: [] } });
          },

          paste() {
            const clip = get().clipboard;
            if (clip) insertCopies(clip);
          },

          duplicateSelection() {
            const clip = copyTasks(get().doc, new Set(get().selectedTaskIds));
            if (clip) insertCopies(clip);
          },

          applyGrouping(groups, message) {
            return edit((doc) => setSubgraphs(doc, groups), { notice: { kind: 'info', message, taskIds: [] }, collapsed: [] });
          },

          clearSubgraphs() {
            edit((doc) => ({ ...doc, subgraphs: [] }), { collapsed: [] });
          },

          moveToSubgraph(taskIds, subgraphId, positions) {
            return edit((doc) => moveTasksToSubgraph(positions ? setPositions(doc, positions) : doc, taskIds, subgraphId));
          },

          splitSelection() {
            let created = '';
            const ok = edit((doc) => {
              const split = splitSubgraph(doc, get().selectedTaskIds);
              created = split.subgraphId;
              return split.doc;
            });
            if (ok) set({ notice: { kind: 'info', message: `Moved the selected tasks into a new subgraph, ${created}`, taskIds: [] } });
            return ok;
          },

          mergeSelection() {
            const ids = subgraphsHolding(get().doc.subgraphs, get().selectedTaskIds);
            const ok = edit((doc) => mergeSubgraphs(doc, ids));
            if (ok) set({ notice: { kind: 'info', message: `Merged ${ids.join(', ')} into ${ids[0]}`, taskIds: [] } });
            return ok;
          },

          toggleCollapsed(subgraphId) {
            const collapsed = get().collapsed;
            if (collapsed.includes(subgraphId)) set({ collapsed: collapsed.filter((id) => id !== subgraphId) });
            else collapse([...collapsed, subgraphId]);
          },

          setAllCollapsed(collapsed) {
            if (collapsed) collapse(get().doc.subgraphs.map((sg) => sg.subgraph_id));
            else set({ collapsed: [] });
          },

          expandToShow(taskIds) {
            const owners = new Set(subgraphsHolding(get().doc.subgraphs, taskIds));
            const collapsed = get().collapsed;
            if (collapsed.some((id) => owners.has(id))) set({ collapsed: collapsed.filter((id) => !owners.has(id)) });
          },

          applySavedRevision(doc, revision) {
            // An applied replan changes content: whatever stood on the plan no longer does.
            set({ doc, savedDoc: doc, baseRevision: revision, selectedTaskIds: [], selectedEdgeId: null, approval: null });
          },

          setApproval: (approval) => set({ approval }),

          markSaved(revision, sent, options) {
            set(
              options?.layoutOnly
                ? { baseRevision: revision, savedDoc: sent, savedHere: revision }
                : { baseRevision: revision, savedDoc: sent, savedHere: revision, approval: null },
            );
          },

          loadRevision(doc, revision) {
            history.pause();
            set({ doc, savedDoc: doc, baseRevision: revision, notice: null, selectedEdgeId: null, collapsed: doc.view.collapsed });
            history.resume();
            history.clear();
          },

          rebase(theirs, revision, merged) {
            history.pause();
            set({ doc: theirs, savedDoc: theirs, baseRevision: revision, selectedEdgeId: null });
            history.resume();
            history.clear();
            // The merge unions both sides' groups; tasks left out of every group get one of their own.
            const doc = merged.subgraphs.length ? resyncSubgraphs(merged) : merged;
            const error = doc.subgraphs.length ? groupingError(doc.plan.planned_tasks, doc.subgraphs) : null;
            const live = new Set(doc.plan.planned_tasks.map((t) => t.task_id));
            set({
              doc,
              selectedTaskIds: get().selectedTaskIds.filter((id) => live.has(id)),
              notice: error ? { kind: 'error', message: `After merging: ${error}`, taskIds: [] } : { kind: 'info', message: `Your changes are now on top of revision ${revision}; review them and save`, taskIds: [] },
            });
          },
        };
      },
      {
        partialize: (state) => ({ doc: state.doc }),
        equality: (a, b) => a.doc === b.doc,
        limit: 200,
      },
    ),
  );

  // Collapsed ids follow the grouping through every change, undo and redo included, so a
  // subgraph made later under a freed id does not start out collapsed.
  store.subscribe((state, prev) => {
    if (state.doc.subgraphs === prev.doc.subgraphs || state.collapsed.length === 0) return;
    const live = liveCollapsed(state.doc, state.collapsed);
    if (live.length !== state.collapsed.length) store.setState({ collapsed: live });
  });

  history.pause = () => store.temporal.getState().pause();
  history.resume = () => store.temporal.getState().resume();
  history.clear = () => store.temporal.getState().clear();
  return store;
}

export type EditorStore = ReturnType<typeof createEditorStore>;
