'use client';

import { ReactFlowProvider, useReactFlow, useStoreApi, type Viewport } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useStore } from 'zustand';
import { useSearchParams } from 'next/navigation';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ApprovalGuard } from '@/lib/editor-store/approval-guard';
import { createEditorStore, type EditorState, type EditorStore } from '@/lib/editor-store/editor-store';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import { fallbackPosition } from '@/lib/flow/fallback-position';
import { freeSpot } from '@/lib/flow/free-spot';
import { layoutInWorker } from '@/lib/flow/layout-client';
import { linkedTask, missingTaskMessage } from '@/lib/flow/task-link';
import { containsRect, visibleRect } from '@/lib/flow/view-window';
import { OVERVIEW_TASKS, OVERVIEW_ZOOM, isGroupBy, type Aggregate } from '@/lib/flow/overview';
import type { PlanDocument } from '@/lib/plan';
import type { ReviewMarksData } from '@/lib/flow/review-marks';
import type { Registry } from '@/lib/registry';
import { CommentsProvider, type CommentsSettings } from '@/components/comments/comments-context';
import { replaceQuery } from '@/components/ui/replace-query';
import { ApprovalBanner } from './approval-banner';
import { DecisionBanner } from './decision-banner';
import { CanvasFocusContext, RelatedTasks, createCanvasFocusStore, useCanvasFocus, useCanvasFocusStore } from './canvas-focus';
import { EditorCanvas } from './editor-canvas';
import { EditorFrame } from './editor-frame';
import { EditorStoreContext, useEditor, useEditorStore } from './editor-context';
import { EditorToolbar } from './editor-toolbar';
import { ReviewMarksContext } from './review-marks-context';
import { SimulationContext, type TaskSimState } from './simulation-context';
import { Inspector } from './inspector';
import { IssuesPanel } from './issues-panel';
import { LivePlanState } from './live-plan-state';
import { NoticeBar } from './notice-bar';
import { OptimisePanel } from './optimise-panel';
import { OverviewCanvas } from './overview-canvas';
import { FIT_TASKS, useFitTasks, whenDrawn } from './use-fit-tasks';
import { ReplanDialog } from '../replan/replan-dialog';
import { Outline } from './outline';

export interface PlanEditorProps {
  planId: string;
  revision: number;
  doc: PlanDocument;
  readOnly: boolean;
  registry?: Registry;
  /** A dry run's verdict per task, drawn on the nodes. */
  simulation?: Record<string, TaskSimState>;
  /** What a content-changing save would void (standing approvals, or the review), from the server. */
  approval?: ApprovalGuard | null;
  /** On the review page: each task's change since the base revision, and the tasks removed since. */
  reviewMarks?: ReviewMarksData;
  /** Comment threads on the tasks (badges, the inspector) and the newest objection's banner; none without. */
  comments?: CommentsSettings | null;
  /** Told the selected task ids whenever the selection changes (the run view's task panel follows it). */
  onSelectionChange?: (taskIds: string[]) => void;
  /** Opens the replan dialog at once for these tasks, its instructions prefilled (a failed run's errors). */
  replan?: { taskIds: string[]; instructions: string } | null;
  /** Opens on the task canvas fitted to these tasks: an aggregate opened while the plan was loading. */
  openTasks?: readonly string[];
  /** Opens the task canvas at this view: where the page showed the linked task while the plan loaded. */
  openedAt?: Viewport;
}

export function PlanEditor(props: PlanEditorProps) {
  const simulation = useMemo(() => (props.simulation ? new Map(Object.entries(props.simulation)) : null), [props.simulation]);
  const reviewMarks = useMemo(
    () => (props.reviewMarks ? { marks: new Map(Object.entries(props.reviewMarks.marks)), removed: props.reviewMarks.removed } : null),
    [props.reviewMarks],
  );
  // The link as opened, read once: the editor rewrites the query as the operator works, through
  // the router, so `search` changes with every move; the shell is handed this, not `search`.
  // From the router, not window.location: after an in-app navigation (the sign-in redirect) the
  // address bar may still show the page before.
  const search = useSearchParams();
  const [openedWith] = useState(() => search.toString());
  const [store] = useState(() => {
    const created = createEditorStore({ planId: props.planId, revision: props.revision, doc: props.doc, readOnly: props.readOnly, registry: props.registry, approval: props.approval });
    openLinkedTask(created, search.get('task'));
    return created;
  });
  // Big plans open in the overview, unless the link names a task of the plan or a viewport of the task canvas.
  const [focus] = useState(() => {
    const asked = search.get('overview');
    const big = props.doc.plan.planned_tasks.length > OVERVIEW_TASKS;
    const linked = store.getState().selectedTaskIds.length > 0 || search.has('view');
    const view = !props.openTasks?.length && (asked !== null || (big && !linked)) ? 'overview' : 'tasks';
    return createCanvasFocusStore({ view, groupBy: isGroupBy(asked) ? asked : 'target', fit: props.openTasks, openedAt: props.openedAt });
  });
  const shownRevision = useStore(store, (s) => s.baseRevision);
  const { onSelectionChange } = props;
  useEffect(
    () => onSelectionChange && store.subscribe((state, before) => state.selectedTaskIds !== before.selectedTaskIds && onSelectionChange(state.selectedTaskIds)),
    [store, onSelectionChange],
  );
  // The server's guard replaces ours whenever the page renders again (a status change seen by
  // the live bar); a save sets it from the save's own answer.
  const approval = props.approval ?? null;
  const approvalKey = JSON.stringify(approval);
  useEffect(() => {
    store.getState().setApproval(approval);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value: a fresh render of the same guard changes nothing
  }, [store, approvalKey]);
  return (
    <EditorStoreContext.Provider value={store}>
      <SimulationContext.Provider value={simulation}>
        <ReviewMarksContext.Provider value={reviewMarks}>
          <ReactFlowProvider>
            {/* The revision on screen, not the server's head: after a refresh the editor may still show its base. */}
            <CommentsProvider planId={props.planId} revision={shownRevision} settings={props.comments}>
              <CanvasFocusContext.Provider value={focus}>
                <EditorShell replan={props.replan ?? null} openedWith={openedWith} />
              </CanvasFocusContext.Provider>
            </CommentsProvider>
          </ReactFlowProvider>
        </ReviewMarksContext.Provider>
      </SimulationContext.Provider>
    </EditorStoreContext.Provider>
  );
}

/** The whole plan just laid out, as React Flow's own fitView would frame it. */
const FIT_ALL = { padding: 0.1, maxZoom: 2 };

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/**
 * Opens the editor on the task a link names (`?task=`): selected, its subgraph expanded, from
 * the first render. The inspector shows it and the address keeps naming it while a plan
 * without saved positions (one made over the API, as planners make them) is still being laid
 * out; selecting it only once the layout had landed left the address without it meanwhile
 * (the selection is written into the address from the first render on). A task the revision
 * does not have is said in the notice bar rather than silently ignored.
 */
function openLinkedTask(store: EditorStore, taskId: string | null): void {
  const state = store.getState();
  const { found, missing } = linkedTask(state.doc.plan.planned_tasks, taskId);
  if (missing !== null) state.setNotice({ kind: 'error', message: missingTaskMessage(missing, state.baseRevision), taskIds: [] });
  if (found === null) return;
  state.expandToShow([found]);
  state.select([found]);
}

/** Keeps `?task=` in the address bar in step with the selection, so a copied link opens it. */
function SelectionInUrl() {
  const selectedTaskIds = useEditor((s) => s.selectedTaskIds);
  useEffect(() => {
    replaceQuery((params) => {
      if (selectedTaskIds.length === 1) params.set('task', selectedTaskIds[0]);
      else params.delete('task');
    });
  }, [selectedTaskIds]);
  return null;
}

/** Keeps `?overview=<group by>` in the address bar while the overview is shown, so a link opens it. */
function ViewInUrl() {
  const view = useCanvasFocus((s) => s.view);
  const groupBy = useCanvasFocus((s) => s.groupBy);
  useEffect(() => {
    replaceQuery((params) => {
      if (view === 'overview') {
        params.set('overview', groupBy);
        // A task-canvas viewport means nothing in the overview's coordinates.
        params.delete('view');
      } else params.delete('overview');
    });
  }, [view, groupBy]);
  return null;
}

/** Whether invalid JSON typed into a task that still exists waits in the inspector: it is lost with the page. */
function hasJsonDrafts(state: EditorState): boolean {
  const keys = Object.keys(state.jsonDrafts);
  if (keys.length === 0) return false;
  const ids = new Set(state.doc.plan.planned_tasks.map((t) => t.task_id));
  return keys.some((key) => ids.has(key.split('\u0000')[0]!));
}

/** Asks before the page is left with unsaved changes (or kept invalid JSON): by reload or close, or by a link. */
function UnsavedChangesGuard() {
  const dirty = useEditor((s) => s.doc !== s.savedDoc || hasJsonDrafts(s));
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    // In-app links navigate without unloading the page, so they are asked here.
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.target === '_blank' || link.hasAttribute('download') || link.origin !== window.location.origin) return;
      if (link.pathname === window.location.pathname || link.pathname.startsWith('/api/')) return;
      if (!window.confirm('You have unsaved changes. Leave this plan and lose them?')) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', warn);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', warn);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);
  return null;
}

// The shell re-renders only for layout state; panels subscribe to the slices they show.
const EditorShell = memo(function EditorShell({ replan, openedWith }: { replan: PlanEditorProps['replan']; openedWith: string }) {
  const store = useEditorStore();
  const flow = useReactFlow();
  const searchRef = useRef<HTMLInputElement>(null);
  const focus = useCanvasFocusStore();
  // True while the first layout of tasks without saved positions runs in the worker.
  const [laying, setLaying] = useState(() => {
    const { doc } = store.getState();
    return doc.plan.planned_tasks.some((t) => !doc.view.positions[t.task_id]);
  });
  // One side panel at a time: optimising, or replanning the tasks selected when it opened.
  const [panel, setPanel] = useState<{ kind: 'optimise' } | { kind: 'replan'; taskIds: string[]; instructions?: string } | null>(() =>
    replan ? { kind: 'replan', ...replan } : null,
  );
  // Read before the canvas takes the fit (a child's effects run first) and the view handed over (its render runs after this one).
  const [openedOn] = useState(() => focus.getState().pendingFit);
  const [handedOver] = useState(() => focus.getState().openedAt !== null);
  const flowRef = useRef(flow);
  const fitTasks = useFitTasks();
  const fitRef = useRef(fitTasks);
  useLayoutEffect(() => {
    flowRef.current = flow;
    fitRef.current = fitTasks;
  });

  const view = useCanvasFocus((s) => s.view);
  const large = useEditor((s) => s.doc.plan.planned_tasks.length > OVERVIEW_TASKS);
  const reveal = useCallback(
    (taskIds: string[]) => {
      focus.getState().leaveSearchFor(taskIds);
      store.getState().expandToShow(taskIds);
      store.getState().select(taskIds);
      // From the overview, the task canvas opens fitted to them once it has drawn them.
      if (focus.getState().view === 'overview') return focus.getState().setView('tasks', taskIds);
      // A task in a collapsed subgraph is drawn from the next frame on.
      requestAnimationFrame(() => fitRef.current(taskIds, { ...FIT_TASKS, duration: 250 }));
    },
    [store, focus],
  );
  const revealOne = useCallback((id: string) => reveal([id]), [reveal]);

  // "Add task": in free space beside the tasks in view, brought into view, its description
  // focused in the inspector (which opens at its top).
  const rf = useStoreApi();
  const [added, setAdded] = useState<string | null>(null);
  useEffect(
    () => store.subscribe((state, before) => state.selectedTaskIds !== before.selectedTaskIds && setAdded((id) => (id !== null && state.selectedTaskIds[0] === id ? id : null))),
    [store],
  );
  const addTask = useCallback(() => {
    const { doc } = store.getState();
    const onTasks = focus.getState().view === 'tasks';
    const { transform, width, height } = rf.getState();
    const view = onTasks && width && height ? visibleRect(transform, width, height) : null;
    const nodes = doc.plan.planned_tasks.map((t, i) => ({ ...(doc.view.positions[t.task_id] ?? fallbackPosition(i)), ...NODE_SIZE }));
    const at = freeSpot(nodes, view);
    const id = store.getState().addTask({}, at);
    if (!id) return;
    setAdded(id);
    if (!onTasks) return focus.getState().setView('tasks', [id]);
    if (view && containsRect(view, { ...at, ...NODE_SIZE })) return;
    void flowRef.current.setCenter(at.x + NODE_SIZE.width / 2, at.y + NODE_SIZE.height / 2, { zoom: transform[2], duration: 250 });
  }, [store, focus, rf]);
  const openAggregate = useCallback((aggregate: Aggregate) => focus.getState().setView('tasks', aggregate.taskIds), [focus]);
  // The canvas is interactive from here; `npm run bench` reads these marks: canvas-ready is
  // also set by the read-only picture a big plan's page shows first, editable only here.
  const markReady = useCallback(
    () =>
      requestAnimationFrame(() => {
        performance.mark('plangate:canvas-ready');
        performance.mark('plangate:editable');
        focus.getState().setShown();
      }),
    [focus],
  );

  // Open exactly what the sender of a link saw: the task it names (selected since the store
  // was made), else their viewport, else the whole plan. The editor places the first task
  // canvas's view itself and that canvas does not fit itself (useCanvasArrival): the fit React
  // Flow queues on mounting lands once the nodes are measured, which can be after the view
  // placed here, and then showed the whole plan instead. Tasks without saved positions are
  // drawn at fallback spots until the worker has laid them out: the view is placed on them at
  // once, and again when the layout lands.
  useEffect(() => {
    const flow = flowRef.current;
    const params = new URLSearchParams(openedWith);
    const viewport = params.get('view')?.split(',').map(Number);
    const { doc } = store.getState();
    const wanted = linkedTask(doc.plan.planned_tasks, params.get('task')).found;
    const unplaced = doc.plan.planned_tasks.some((t) => !doc.view.positions[t.task_id]);
    // The overview needs no positions: it is on screen at once, and the layout lands behind it.
    // Ready when the canvas shows what the link names: the task drawn where it was fitted.
    // `laidOut`: the worker's layout has just been applied, and every task may have moved.
    const place = (laidOut: boolean) => {
      // The overview is on screen at once.
      if (focus.getState().view === 'overview') return focus.getState().setShown();
      const settled = laidOut || !unplaced;
      const fit = fitRef.current;
      // An aggregate opened while the plan loaded: fitted again once its tasks are laid out.
      if (openedOn) {
        if (!settled) return;
        requestAnimationFrame(() => fit(openedOn, FIT_TASKS));
        if (openedOn[0] !== undefined) void whenDrawn(openedOn[0]).then(markReady);
        return;
      }
      if (wanted) {
        // Where the operator is by then, if they picked other tasks while the plan was laid out.
        const selected = store.getState().selectedTaskIds;
        const shown = laidOut && selected.length > 0 ? selected : [wanted];
        // Already there when the page showed it while the plan loaded (the operator may have
        // moved since), unless the plan has just been laid out and every task may have moved.
        if (!handedOver || laidOut) requestAnimationFrame(() => fit(shown, FIT_TASKS));
        if (settled) void whenDrawn(wanted).then(markReady);
        return;
      }
      if (!settled) {
        // At the fallback spots, as React Flow draws them, until the layout lands.
        void flow.fitView(FIT_ALL);
        return;
      }
      markReady();
      if (viewport?.length === 3 && viewport.every(Number.isFinite)) {
        void flow.setViewport({ x: viewport[0], y: viewport[1], zoom: viewport[2] });
      } else if (laidOut) {
        // From the positions just laid out, which React Flow may not have drawn yet.
        const all = store.getState().doc.plan.planned_tasks.map((t) => t.task_id);
        requestAnimationFrame(() => fitRef.current(all, FIT_ALL));
      } else {
        // As React Flow drew it: the review canvas draws removed tasks too.
        requestAnimationFrame(() => void flow.fitView());
      }
    };
    if (!unplaced) return place(false);
    // A big plan's canvas is given only the tasks in view, which are not known before the layout.
    if (doc.plan.planned_tasks.length <= OVERVIEW_TASKS) place(false);
    let cancelled = false;
    layoutInWorker(doc.plan.planned_tasks)
      .then(({ positions }) => {
        if (cancelled) return;
        store.getState().applyLayout(positions, { undoable: false });
        place(true);
      })
      .catch((error: Error) => store.getState().setNotice({ kind: 'error', message: `Automatic layout failed: ${error.message}`, taskIds: [] }))
      .finally(() => !cancelled && setLaying(false));
    return () => {
      cancelled = true;
    };
  }, [store, focus, openedWith, openedOn, handedOver, markReady]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === 'k') {
        event.preventDefault();
        searchRef.current?.focus();
        return;
      }
      // Never the browser's "Save page": the save controls (editors only) save the plan.
      if (mod && key === 's') {
        event.preventDefault();
        return;
      }
      if (isTyping(event.target)) return;
      const state = store.getState();
      const history = store.temporal.getState();
      if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) history.redo();
        else history.undo();
      } else if (mod && key === 'y') {
        event.preventDefault();
        history.redo();
      } else if (mod && key === 'c') {
        state.copySelection();
      } else if (mod && key === 'v') {
        state.paste();
      } else if (mod && key === 'd') {
        event.preventDefault();
        state.duplicateSelection();
      } else if (key === 'escape') {
        state.setNotice(null);
        state.select([]);
        focus.getState().clear();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, focus]);

  async function tidy() {
    setLaying(true);
    try {
      const { positions } = await layoutInWorker(store.getState().doc.plan.planned_tasks);
      store.getState().applyLayout(positions, { undoable: true });
      // A big plan stays where the operator is; fitting it all would leave the task canvas for the overview.
      if (!large) requestAnimationFrame(() => void flow.fitView({ duration: 250 }));
    } catch (error) {
      store.getState().setNotice({ kind: 'error', message: `Layout failed: ${(error as Error).message}`, taskIds: [] });
    } finally {
      setLaying(false);
    }
  }

  // Zoomed out past reading on a big plan (by the operator: a programmatic move has no
  // event, and the canvas may pass through small zooms while it is fitted), the task canvas
  // gives way to the overview.
  const onViewportSettled = useCallback(
    (event: MouseEvent | TouchEvent | null, viewport: Viewport) => {
      if (large && event && viewport.zoom < OVERVIEW_ZOOM) return focus.getState().setView('overview');
      replaceQuery((params) => params.set('view', `${Math.round(viewport.x)},${Math.round(viewport.y)},${viewport.zoom.toFixed(3)}`));
    },
    [large, focus],
  );
  const fit = useCallback(() => {
    if (large && focus.getState().view === 'tasks') return focus.getState().setView('overview');
    void flow.fitView({ duration: 250 });
  }, [large, focus, flow]);

  return (
    <div className="flex h-full flex-col">
      <SelectionInUrl />
      <ViewInUrl />
      <RelatedTasks />
      <UnsavedChangesGuard />
      <ApprovalBanner />
      <LivePlanState />
      <DecisionBanner onReveal={revealOne} />
      <EditorToolbar
        onAddTask={addTask}
        onTidy={() => void tidy()}
        onFit={fit}
        onOptimise={() => setPanel((open) => (open?.kind === 'optimise' ? null : { kind: 'optimise' }))}
        onReplan={() => setPanel({ kind: 'replan', taskIds: store.getState().selectedTaskIds })}
        laying={laying}
      />
      <EditorFrame
        outline={<Outline ref={searchRef} onReveal={revealOne} />}
        canvas={
          <>
            {view === 'overview' ? <OverviewCanvas onOpen={openAggregate} onReady={markReady} /> : <EditorCanvas onViewportSettled={onViewportSettled} />}
            {panel?.kind === 'optimise' && <OptimisePanel onClose={() => setPanel(null)} />}
            {panel?.kind === 'replan' && <ReplanDialog key={panel.taskIds.join('\u0000')} taskIds={panel.taskIds} initialInstructions={panel.instructions} onClose={() => setPanel(null)} />}
            <div className="pointer-events-none absolute inset-x-0 top-3 z-10 flex justify-center">
              <NoticeBar />
            </div>
          </>
        }
        issues={<IssuesPanel onReveal={reveal} />}
        inspector={<Inspector onReveal={revealOne} focusDescriptionOf={added} />}
      />
    </div>
  );
});
