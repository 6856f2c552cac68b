import type { ELK, ElkNode } from 'elkjs/lib/elk-api';
import { hasAssignedLayers } from './elk-graph';
import { sweepLayers } from './layer-sweep';

/**
 * Lays out a graph from toElkGraph as the layout worker does: ELK for small plans and for
 * large ones with a cycle; for a large plan whose layers toElkGraph assigned, the sweeps of
 * layer-sweep.ts order them (ELK took seconds over the same result). Read positions
 * through layoutPositions (wrap-layers.ts).
 */
export async function layOutGraph(elk: ELK, graph: ElkNode): Promise<ElkNode> {
  return hasAssignedLayers(graph) ? sweepLayers(graph) : elk.layout(graph);
}
