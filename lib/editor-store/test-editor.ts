import { contentHash, PlanDocument, setPositions, type PlannerTask, type PlannerTaskInput } from '@/lib/plan';
import { setSubgraphs } from '@/lib/optimize/subgraph-edits';
import { edgeId } from '@/lib/flow/plan-to-flow';
import { saveWouldVoid, type ApprovalGuard } from './approval-guard';
import { createEditorStore, type EditorStore } from './editor-store';
import type { Position } from './editor-state';

// For tests only: an editor store opened on a small plan, driven the way the editor's
// components drive it (components/editor: the canvas, the inspector, the toolbar, the save
// controls), so that a test reads as what the operator does and what they then see.

export interface TestPlan {
  /** Each task with the tasks it waits on; a task's description is its id. */
  tasks: Record<string, string[]>;
  /** Where tasks are drawn; by default in a row 300 apart. 'none' opens the plan unplaced. */
  positions?: Record<string, Position> | 'none';
  /** Subgraphs, by id, with their tasks. */
  groups?: Record<string, string[]>;
  revision?: number;
  readOnly?: boolean;
  approval?: ApprovalGuard;
}

export interface ServerAnswer {
  revision?: number;
  /** What stands on the new head; none unless said. */
  approval?: ApprovalGuard | null;
  /** By default what the server decides: the content hash did not change. */
  layoutOnly?: boolean;
}

/** The editor's keyboard shortcuts (components/editor/plan-editor.tsx) and canvas keys (editor-canvas.tsx). */
type Key = 'Ctrl+Z' | 'Ctrl+Shift+Z' | 'Ctrl+Y' | 'Ctrl+C' | 'Ctrl+V' | 'Ctrl+D' | 'Escape' | 'Delete' | Arrow | `Shift+${Arrow}`;
type Arrow = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

const ARROWS: Record<Arrow, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const NUDGE = 10;
const NUDGE_FAR = 50;

export function planDocument(plan: Pick<TestPlan, 'tasks' | 'positions' | 'groups'>): PlanDocument {
  const ids = Object.keys(plan.tasks);
  const parsed = PlanDocument.parse({
    plan: { planned_tasks: ids.map((id) => ({ task_id: id, description: id, execution_type: 'agent', dependencies: plan.tasks[id] })) },
  });
  const positions = plan.positions ?? Object.fromEntries(ids.map((id, i) => [id, { x: 300 * i, y: 0 }]));
  const placed = positions === 'none' ? parsed : setPositions(parsed, positions);
  return plan.groups ? setSubgraphs(placed, Object.entries(plan.groups).map(([subgraph_id, task_ids]) => ({ subgraph_id, task_ids }))) : placed;
}

export function openEditor(plan: TestPlan): TestEditor {
  const store = createEditorStore({ planId: 'plan-1', revision: plan.revision ?? 1, doc: planDocument(plan), readOnly: plan.readOnly ?? false, approval: plan.approval ?? null });
  return new TestEditor(store);
}

export class TestEditor {
  /** The test's clock, for arrow-key bursts: it moves only when the test waits. */
  private now = 1_000_000;
  /** The document the save in flight sent, as the save controls keep it. */
  private sent: PlanDocument | null = null;

  constructor(readonly store: EditorStore) {}

  get state() {
    return this.store.getState();
  }

  // What the operator sees.

  get doc() {
    return this.state.doc;
  }
  get taskIds(): string[] {
    return this.doc.plan.planned_tasks.map((t) => t.task_id);
  }
  task(id: string): PlannerTask | undefined {
    return this.doc.plan.planned_tasks.find((t) => t.task_id === id);
  }
  /** Each task with the tasks it waits on. */
  get dependencies(): Record<string, string[]> {
    return Object.fromEntries(this.doc.plan.planned_tasks.map((t) => [t.task_id, t.dependencies]));
  }
  /** Each subgraph with its tasks. */
  get groups(): Record<string, string[]> {
    return Object.fromEntries(this.doc.subgraphs.map((sg) => [sg.subgraph_id, sg.task_ids]));
  }
  position(id: string): Position | undefined {
    return this.doc.view.positions[id];
  }
  get selected(): string[] {
    return this.state.selectedTaskIds;
  }
  get notice() {
    return this.state.notice;
  }
  /** Whether the save button has something to save. */
  get dirty(): boolean {
    return this.state.doc !== this.state.savedDoc;
  }
  get undoSteps(): number {
    return this.store.temporal.getState().pastStates.length;
  }
  get redoSteps(): number {
    return this.store.temporal.getState().futureStates.length;
  }

  // The canvas.

  /** Clicks one task, or box-selects several. */
  click(...taskIds: string[]): this {
    this.state.select(taskIds);
    return this;
  }
  /** Adds a task to the selection, or takes it out. */
  shiftClick(taskId: string): this {
    const selected = this.selected;
    this.state.select(selected.includes(taskId) ? selected.filter((id) => id !== taskId) : [...selected, taskId]);
    return this;
  }
  clickEdge(from: string, to: string): this {
    this.state.selectEdge(edgeId(from, to));
    return this;
  }
  clickPane(): this {
    this.state.select([]);
    this.state.selectEdge(null);
    return this;
  }
  doubleClickPane(at: Position): string | null {
    return this.state.addTask({}, at);
  }
  /** Drags a task and drops it on the empty canvas; the other selected tasks move along, as React Flow moves them. */
  drag(taskId: string, to: Position): this {
    this.state.moveTasks(this.dragged(taskId, to));
    return this;
  }
  /** Drags a task (with the other selected ones) and drops it inside a subgraph's box. */
  dropInto(subgraphId: string, taskId: string, to: Position): boolean {
    const drag = this.dragged(taskId, to);
    return this.state.moveToSubgraph(Object.keys(drag), subgraphId, drag);
  }
  /** Draws an edge from one task's handle to another's: `to` then waits on `from`. */
  connect(from: string, to: string): boolean {
    this.state.setNotice(null);
    return this.state.connect(from, to);
  }
  /** Drags an edge's end onto other tasks. */
  reconnect(edge: [from: string, to: string], next: [from: string, to: string]): boolean {
    return this.state.moveEdge({ from: edge[0], to: edge[1] }, { from: next[0], to: next[1] });
  }

  press(key: Key): this {
    const history = this.store.temporal.getState();
    if (key === 'Ctrl+Z') history.undo();
    else if (key === 'Ctrl+Shift+Z' || key === 'Ctrl+Y') history.redo();
    else if (key === 'Ctrl+C') this.state.copySelection();
    else if (key === 'Ctrl+V') this.state.paste();
    else if (key === 'Ctrl+D') this.state.duplicateSelection();
    else if (key === 'Escape') {
      this.state.setNotice(null);
      this.state.select([]);
    } else if (key === 'Delete') this.deleteSelected();
    else this.nudge(key);
    return this;
  }
  wait(ms: number): this {
    this.now += ms;
    return this;
  }

  // The inspector, on the selected task.

  /** Types into a text field and leaves it; returns the error shown beside the field. */
  fill(field: 'description' | 'instructions' | 'status', text: string): string | null {
    const task = this.inspected();
    if (text === (task[field] ?? '')) return null;
    return this.state.updateTask(task.task_id, { [field]: text === '' && field === 'instructions' ? null : text });
  }
  /** Types into a JSON field and leaves it; invalid JSON is kept with its error. Returns the error shown. */
  fillJson(field: 'parameters' | 'arguments' | 'estimate_data', text: string): string | null {
    const task = this.inspected();
    let error: string | null;
    try {
      error = this.state.updateTask(task.task_id, { [field]: JSON.parse(text) } as Partial<PlannerTaskInput>);
    } catch (e) {
      error = `Not valid JSON: ${(e as Error).message}`;
    }
    this.state.setJsonDraft(task.task_id, field, error ? { text, error } : null);
    return error;
  }

  // The save controls.

  /** Presses Save: 'confirm' when the save would void what stands on the plan (the dialog asks), else the save is sent. */
  clickSave(): 'confirm' | 'sent' {
    const { approval, doc, savedDoc } = this.state;
    if (saveWouldVoid(approval, doc, savedDoc)) return 'confirm';
    return this.confirmSave();
  }
  /** Answers the void-approval dialog with "Save anyway". */
  confirmSave(): 'sent' {
    this.sent = this.state.doc;
    return 'sent';
  }
  /** The server's answer to the save in flight. */
  serverAnswers(answer: ServerAnswer = {}): this {
    const sent = this.sent;
    if (!sent) throw new Error('serverAnswers: no save in flight');
    this.sent = null;
    const revision = answer.revision ?? this.state.baseRevision + 1;
    const layoutOnly = answer.layoutOnly ?? contentHash(sent) === contentHash(this.state.savedDoc);
    this.state.markSaved(revision, sent, { layoutOnly });
    this.state.setApproval(answer.approval ?? null);
    return this;
  }
  /** Saves and gets the answer, confirming if asked. */
  save(answer?: ServerAnswer): this {
    if (this.clickSave() === 'confirm') this.confirmSave();
    return this.serverAnswers(answer);
  }

  private inspected(): PlannerTask {
    const [id, ...more] = this.selected;
    const task = id === undefined || more.length ? undefined : this.task(id);
    if (!task) throw new Error('The inspector shows a task only when exactly one is selected');
    return task;
  }

  private dragged(taskId: string, to: Position): Record<string, Position> {
    const from = this.position(taskId) ?? { x: 0, y: 0 };
    const moving = this.selected.includes(taskId) ? this.selected : [taskId];
    return Object.fromEntries(
      moving.flatMap((id) => {
        const at = this.position(id);
        return at ? [[id, { x: at.x + to.x - from.x, y: at.y + to.y - from.y }]] : [];
      }),
    );
  }

  /** React Flow's delete key: the selected tasks with every edge touching them, and the selected edge. */
  private deleteSelected() {
    const doomed = new Set(this.selected);
    const edges = this.doc.plan.planned_tasks.flatMap((t) =>
      t.dependencies
        .map((from) => ({ from, to: t.task_id }))
        .filter(({ from, to }) => doomed.has(from) || doomed.has(to) || edgeId(from, to) === this.state.selectedEdgeId),
    );
    if (doomed.size || edges.length) this.state.deleteElements([...doomed], edges);
  }

  private nudge(key: Arrow | `Shift+${Arrow}`) {
    const far = key.startsWith('Shift+');
    const [dx, dy] = ARROWS[key.replace('Shift+', '') as Arrow];
    const step = far ? NUDGE_FAR : NUDGE;
    if (this.state.readOnly || this.selected.length === 0) return;
    this.state.nudgeSelection(dx * step, dy * step, this.now);
  }
}
