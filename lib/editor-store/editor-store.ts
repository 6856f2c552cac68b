import { temporal } from 'zundo';
import { createStore } from 'zustand/vanilla';
import type { DocumentState, EditorInit, EditorState } from './editor-state';
import { clipboardSlice } from './clipboard-slice';
import { groupingSlice } from './grouping-slice';
import { layoutSlice } from './layout-slice';
import { noticeSlice } from './notice-slice';
import { revisionSlice } from './revision-slice';
import { liveCollapsed, selectionSlice } from './selection-slice';
import { makeKit, type History } from './slice-kit';
import { taskEditSlice } from './task-edit-slice';

// One store per open editor, composed of one slice per concern (./*-slice.ts). `doc` is the
// domain state and the only thing undo tracks; everything else (selection, notices,
// clipboard, save state) is UI state and never becomes an undo step.

export type { EditorInit, EditorState, JsonDraft, Notice } from './editor-state';
export { jsonDraftKey } from './notice-slice';
export { NUDGE_BURST_MS } from './layout-slice';

function documentState(init: EditorInit): DocumentState {
  return { planId: init.planId, readOnly: init.readOnly, registry: init.registry, doc: init.doc, baseRevision: init.revision, savedDoc: init.doc, storedDoc: init.doc, savedHere: null };
}

export function createEditorStore(init: EditorInit) {
  // The history API exists only once the store does; commands reach it through this.
  const history: History = { pause: () => {}, resume: () => {}, clear: () => {} };
  const store = createStore<EditorState>()(
    temporal(
      (set, get) => {
        const kit = makeKit(init, set, get, history);
        return {
          ...documentState(init),
          ...selectionSlice(kit),
          ...noticeSlice(kit),
          ...taskEditSlice(kit),
          ...layoutSlice(kit),
          ...clipboardSlice(kit),
          ...groupingSlice(kit),
          ...revisionSlice(kit),
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
