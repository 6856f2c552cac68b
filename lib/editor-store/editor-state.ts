import type { Registry } from '@/lib/registry';
import type { PlanDocument, PlannerTaskInput } from '@/lib/plan';
import type { Grouping } from '@/lib/optimize/subgraph-edits';
import type { ApprovalGuard } from './approval-guard';
import type { ClipboardContent } from './clipboard';

// What an open editor holds and the commands it takes, one interface per slice. The slices
// implement these (./*-slice.ts) and editor-store.ts composes them; components see only
// EditorState. Kept apart from both so that neither imports the other.

export type Position = { x: number; y: number };

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

/** The plan being edited and what it was saved as; `doc` is the only thing undo tracks. */
export interface DocumentState {
  planId: string;
  readOnly: boolean;
  /** The resource registry live validation checks targets and parameters against. */
  registry: Registry | undefined;
  doc: PlanDocument;
  /** The revision this editor's edits are based on, and the document as saved there. */
  baseRevision: number;
  savedDoc: PlanDocument;
  /**
   * The document exactly as stored at baseRevision: what a save's change is taken from.
   * savedDoc can differ from it by a first layout, which is not an edit but is not stored yet.
   */
  storedDoc: PlanDocument;
  /** The revision this editor saved last, if any: a head it made itself is no news to it. */
  savedHere: number | null;
}

export interface SelectionSlice {
  selectedTaskIds: string[];
  selectedEdgeId: string | null;
  /** Subgraphs drawn as one node. Saved with the view, but collapsing is not an edit. */
  collapsed: string[];

  select(taskIds: string[]): void;
  selectEdge(edgeId: string | null): void;
  toggleCollapsed(subgraphId: string): void;
  setAllCollapsed(collapsed: boolean): void;
  /** Expands the subgraphs holding these tasks, so that they can be shown. */
  expandToShow(taskIds: string[]): void;
}

export interface NoticeSlice {
  notice: Notice | null;
  /** Invalid JSON typed into inspector fields, by jsonDraftKey, so that selecting another task does not lose it. */
  jsonDrafts: Record<string, JsonDraft>;

  setNotice(notice: Notice | null): void;
  /** Keeps (or, with null, forgets) what was typed into a JSON field; never an undo step. */
  setJsonDraft(taskId: string, field: string, draft: JsonDraft | null): void;
}

export interface TaskEditSlice {
  addTask(input?: Partial<PlannerTaskInput>, position?: Position): string | null;
  updateTask(taskId: string, patch: Partial<PlannerTaskInput>): string | null;
  deleteTasks(taskIds: string[]): void;
  connect(from: string, to: string): boolean;
  moveEdge(edge: { from: string; to: string }, next: { from: string; to: string }): boolean;
  removeEdge(from: string, to: string): void;
  /** Deletes tasks (with their edges) and edges together, as one step. */
  deleteElements(taskIds: string[], edges: Array<{ from: string; to: string }>): void;
}

export interface LayoutSlice {
  moveTasks(positions: Record<string, Position>): void;
  /** Moves the selected tasks by (dx, dy); presses within NUDGE_BURST_MS of each other are one undo step. */
  nudgeSelection(dx: number, dy: number, now?: number): void;
  applyLayout(positions: Record<string, Position>, options: { undoable: boolean }): void;
}

export interface ClipboardSlice {
  clipboard: ClipboardContent | null;

  copySelection(): void;
  paste(): void;
  duplicateSelection(): void;
}

export interface GroupingSlice {
  /** Replaces the grouping (an optimiser's proposal), refused if it breaks an invariant. */
  applyGrouping(groups: Grouping, message: string): boolean;
  clearSubgraphs(): void;
  /** Moves tasks into a subgraph (with the positions they were dropped at), as one step. */
  moveToSubgraph(taskIds: string[], subgraphId: string, positions?: Record<string, Position>): boolean;
  /** Moves the selected tasks out of their subgraph into a new one. */
  splitSelection(): boolean;
  /** Merges the subgraphs holding the selected tasks into one. */
  mergeSelection(): boolean;
}

export interface RevisionSlice {
  /** The approval or review that a content-changing save of this plan would void; null when none stands. */
  approval: ApprovalGuard | null;

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

export type EditorState = DocumentState & SelectionSlice & NoticeSlice & TaskEditSlice & LayoutSlice & ClipboardSlice & GroupingSlice & RevisionSlice;

export interface EditorInit {
  planId: string;
  revision: number;
  doc: PlanDocument;
  readOnly: boolean;
  registry?: Registry;
  approval?: ApprovalGuard | null;
}
