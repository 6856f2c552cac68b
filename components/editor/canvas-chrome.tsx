'use client';

import { MarkerType, MiniMap } from '@xyflow/react';
import type { KeyboardEvent } from 'react';

// What the task canvas, the overview and the tasks shown while a plan loads draw alike around
// the graph. Module-level so their identity never changes: React Flow copies changed props
// into its store.
export const PRO_OPTIONS = { hideAttribution: true };
/** Dependencies end in an arrow at the dependent task. */
export const DEPENDENCY_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
/** A canvas to look at, not edit: the overview, and the tasks shown while a plan loads. */
export const READ_ONLY_CANVAS = { nodesDraggable: false, nodesConnectable: false, elementsSelectable: false, zoomOnDoubleClick: false } as const;

/**
 * For canvases where tasks are looked at, not selected by React Flow (the dry run, the run
 * view): a focused task (React Flow makes them focusable) opens with Enter or Space, as a click would.
 */
export function openFocusedTask(onOpen: (taskId: string) => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const id = (event.target as HTMLElement).closest?.('.react-flow__node')?.getAttribute('data-id');
    if (id && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      onOpen(id);
    }
  };
}

const MINIMAP_STYLE = { width: 140, height: 90 };

export function PlanMiniMap() {
  return <MiniMap pannable zoomable ariaLabel="Minimap" nodeStrokeWidth={3} style={MINIMAP_STYLE} position="top-right" />;
}
