'use client';

import { MiniMap } from '@xyflow/react';

// What the task canvas and the overview draw alike around the graph. Module-level so their
// identity never changes: React Flow copies changed props into its store.
export const PRO_OPTIONS = { hideAttribution: true };
const MINIMAP_STYLE = { width: 140, height: 90 };

export function PlanMiniMap() {
  return <MiniMap pannable zoomable ariaLabel="Minimap" nodeStrokeWidth={3} style={MINIMAP_STYLE} position="top-right" />;
}
