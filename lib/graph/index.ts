/**
 * Public API of lib/graph: pure graph algorithms over a compact CSR index.
 * Build the index once per plan revision with buildGraphIndex, then run any of the
 * algorithms on it. No React, Next.js or @xyflow imports: runs in browser and Node.
 */

export { buildGraphIndex } from './index-build';
export type { GraphIndex, GraphTaskInput } from './index-build';
export { findCycle } from './cycle';
export { topologicalOrder, topologicalPositions } from './topological-order';
export { waves, waveLevels } from './waves';
export { criticalPath } from './critical-path';
export type { CriticalPath } from './critical-path';
export { ancestors, descendants, isReachable, shortestPath } from './reachability';
export { willCreateCycle } from './will-create-cycle';
export { redundantEdges } from './transitive-reduction';
export type { RedundantEdge } from './transitive-reduction';
