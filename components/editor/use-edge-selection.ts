'use client';

import type { Edge, EdgeChange } from '@xyflow/react';
import { useCallback } from 'react';
import { useEditorStore } from './editor-context';

/** A dependency selected on the canvas is the plan's selected edge (the inspector shows it). */
export function useEdgeSelection() {
  const store = useEditorStore();
  return useCallback(
    (changes: EdgeChange<Edge>[]) => {
      for (const change of changes) {
        if (change.type !== 'select') continue;
        if (change.selected) store.getState().selectEdge(change.id);
        else if (store.getState().selectedEdgeId === change.id) store.getState().selectEdge(null);
      }
    },
    [store],
  );
}
