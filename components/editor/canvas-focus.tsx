'use client';

import { createContext, useContext, useEffect, useMemo } from 'react';
import type { Viewport } from '@xyflow/react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { GroupBy } from '@/lib/flow/overview';
import { ancestors, buildGraphIndex, descendants } from '@/lib/graph';
import { useEditor } from './editor-context';

// What the canvas brings forward and what it dims: the tasks matching the outline's search,
// and the tasks upstream or downstream of the selection. Kept apart from the editor store
// (nothing here is part of the plan or its undo history), and read by each task node through
// a selector that returns a string, so a new search re-renders only the nodes whose look changes.

export type Relation = 'upstream' | 'downstream';
/** The canvas draws the plan task by task, or as its overview of aggregates. */
export type CanvasView = 'tasks' | 'overview';

export interface CanvasFocusState {
  /** The search as typed; `matches` follows it after a pause. */
  query: string;
  /** The matching task ids in plan order, or null when nothing is searched. */
  matches: readonly string[] | null;
  matchSet: ReadonlySet<string>;
  /** Index of the match last moved to with Enter, -1 before the first. */
  current: number;
  relation: Relation | null;
  /** The selection and every task up- or downstream of it, or null when nothing is dimmed for it. */
  related: ReadonlySet<string> | null;
  setQuery: (query: string) => void;
  setMatches: (matches: readonly string[] | null) => void;
  /** Moves to the next (1) or previous (-1) match and returns its task id. */
  step: (delta: 1 | -1) => string | null;
  setRelation: (relation: Relation | null) => void;
  setRelated: (related: ReadonlySet<string> | null) => void;
  view: CanvasView;
  groupBy: GroupBy;
  /** Tasks the task canvas fits in view once it has drawn them (an aggregate just opened). */
  pendingFit: readonly string[] | null;
  /**
   * Where the task canvas opens: the view the page showed while the plan loaded, if it showed
   * one. Its x and y are where the canvas origin was in the window, not in the pane: the
   * editor's pane sits lower or higher than the page's was (its toolbar, its banners).
   */
  openedAt: Viewport | null;
  /**
   * Whether the canvas has shown what the editor opened on (the linked task drawn, the plan
   * fitted, the overview): work the first picture need not wait for (live validation) starts after.
   */
  shown: boolean;
  setShown: () => void;
  /** Switches the view; `fit` names the tasks to show when switching to the tasks. */
  setView: (view: CanvasView, fit?: readonly string[]) => void;
  setGroupBy: (groupBy: GroupBy) => void;
  takePendingFit: () => readonly string[] | null;
  /** Where the task canvas opens, once: a canvas mounted later (back from the overview) opens as usual. */
  takeOpenedAt: () => Viewport | null;
  /**
   * Whether the task canvas now mounting is the editor's first, once: the editor places that
   * one's view itself (the linked task, the link's viewport, the whole plan), so it must not
   * fit itself as well. A canvas mounted later (back from the overview) fits itself.
   */
  takeFirstCanvas: () => boolean;
  clearSearch: () => void;
  /** Ends the search when the canvas moves to tasks it did not find (a dependency followed), which it would otherwise show faded. */
  leaveSearchFor: (taskIds: readonly string[]) => void;
  clear: () => void;
}

export type CanvasFocusStore = StoreApi<CanvasFocusState>;

const NO_MATCHES: ReadonlySet<string> = new Set();

export function createCanvasFocusStore(initial: { view?: CanvasView; groupBy?: GroupBy; fit?: readonly string[]; openedAt?: Viewport } = {}): CanvasFocusStore {
  // Only while the editor opens on the task canvas: opened on the overview, it places no task canvas.
  let firstCanvas = (initial.view ?? 'tasks') === 'tasks';
  return createStore<CanvasFocusState>()((set, get) => ({
    view: initial.view ?? 'tasks',
    openedAt: initial.openedAt ?? null,
    groupBy: initial.groupBy ?? 'target',
    pendingFit: initial.view === 'tasks' && initial.fit?.length ? initial.fit : null,
    setView: (view, fit) => set({ view, pendingFit: view === 'tasks' && fit?.length ? fit : null }),
    setGroupBy: (groupBy) => set({ groupBy }),
    shown: false,
    setShown: () => void (get().shown || set({ shown: true })),
    takePendingFit: () => {
      const { pendingFit } = get();
      if (pendingFit) set({ pendingFit: null });
      return pendingFit;
    },
    takeOpenedAt: () => {
      const { openedAt } = get();
      if (openedAt) set({ openedAt: null });
      return openedAt;
    },
    takeFirstCanvas: () => {
      const first = firstCanvas;
      firstCanvas = false;
      return first;
    },
    query: '',
    matches: null,
    matchSet: NO_MATCHES,
    current: -1,
    relation: null,
    related: null,
    setQuery: (query) => set({ query }),
    setMatches: (matches) => {
      const { matches: before, current } = get();
      // The match moved to stays current while it still matches (an edit elsewhere changed the list).
      const kept = current >= 0 && before && matches ? matches.indexOf(before[current]!) : -1;
      set({ matches, matchSet: matches ? new Set(matches) : NO_MATCHES, current: kept });
    },
    step: (delta) => {
      const { matches, current } = get();
      if (!matches?.length) return null;
      const next = current < 0 ? (delta === 1 ? 0 : matches.length - 1) : (current + delta + matches.length) % matches.length;
      set({ current: next });
      return matches[next]!;
    },
    setRelation: (relation) => set({ relation }),
    setRelated: (related) => set({ related }),
    clearSearch: () => set({ query: '', matches: null, matchSet: NO_MATCHES, current: -1 }),
    leaveSearchFor: (taskIds) => {
      const { matches, matchSet, clearSearch } = get();
      if (matches && taskIds.some((id) => !matchSet.has(id))) clearSearch();
    },
    clear: () => set({ query: '', matches: null, matchSet: NO_MATCHES, current: -1, relation: null, related: null }),
  }));
}

export const CanvasFocusContext = createContext<CanvasFocusStore | null>(null);
// Canvases without a search (none today) read this one, which never changes.
const NOTHING_FOCUSED = createCanvasFocusStore();

export function useCanvasFocus<T>(selector: (state: CanvasFocusState) => T): T {
  return useStore(useContext(CanvasFocusContext) ?? NOTHING_FOCUSED, selector);
}

export function useCanvasFocusStore(): CanvasFocusStore {
  return useContext(CanvasFocusContext) ?? NOTHING_FOCUSED;
}

/** How one task is drawn: "current", "match" or "" for its search mark, then whether it is dimmed. */
export type TaskEmphasis = `${'current' | 'match' | ''}${'' | ' dim'}`;

export function useTaskEmphasis(taskId: string): TaskEmphasis {
  return useCanvasFocus((s): TaskEmphasis => {
    const mark = !s.matches ? '' : s.matches[s.current] === taskId ? 'current' : s.matchSet.has(taskId) ? 'match' : '';
    const dim = (s.matches !== null && mark === '') || (s.related !== null && !s.related.has(taskId));
    return `${mark}${dim ? ' dim' : ''}`;
  });
}

/** Keeps `related` in step with the selection and the plan while "Show upstream/downstream" is on. */
export function RelatedTasks() {
  const store = useCanvasFocusStore();
  const relation = useCanvasFocus((s) => s.relation);
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const selected = useEditor((s) => s.selectedTaskIds);
  const index = useMemo(() => (relation ? buildGraphIndex(tasks) : null), [relation, tasks]);
  useEffect(() => {
    if (!relation || !index || selected.length === 0) return store.getState().setRelated(null);
    const walk = relation === 'upstream' ? ancestors : descendants;
    const related = new Set(selected);
    for (const id of selected) {
      const i = index.idToIndex.get(id);
      if (i !== undefined) for (const j of walk(index, i)) related.add(index.ids[j]!);
    }
    store.getState().setRelated(related);
  }, [store, relation, index, selected]);
  return null;
}
