'use client';

import { MarkerType, MiniMap } from '@xyflow/react';

// What the task canvas, the overview and the tasks shown while a plan loads draw alike around
// the graph. Module-level so their identity never changes: React Flow copies changed props
// into its store.
export const PRO_OPTIONS = { hideAttribution: true };
/** Dependencies end in an arrow at the dependent task. */
export const DEPENDENCY_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
/** A canvas to look at, not edit: the overview, and the tasks shown while a plan loads. */
export const READ_ONLY_CANVAS = { nodesDraggable: false, nodesConnectable: false, elementsSelectable: false, zoomOnDoubleClick: false } as const;
const MINIMAP_STYLE = { width: 140, height: 90 };

export function PlanMiniMap() {
  return <MiniMap pannable zoomable ariaLabel="Minimap" nodeStrokeWidth={3} style={MINIMAP_STYLE} position="top-right" />;
}
