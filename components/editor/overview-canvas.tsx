'use client';

import { Background, Controls, MarkerType, ReactFlow, useReactFlow, type Edge } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { AGGREGATE_SIZE, aggregateTitle, buildOverview, type Aggregate, type Overview } from '@/lib/flow/overview';
import { AggregateNodeComponent, type AggregateNode } from './aggregate-node';
import { PRO_OPTIONS, PlanMiniMap, READ_ONLY_CANVAS } from './canvas-chrome';
import { useCanvasFocus } from './canvas-focus';
import { useEditor } from './editor-context';

const NODE_TYPES = { aggregate: AggregateNodeComponent };
// Little padding: the labels' size on screen depends on how much of the canvas the overview fills.
const FIT_VIEW_OPTIONS = { padding: 0.05 };
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The plan as a few dozen aggregates (what their tasks run, by level) and the dependencies
 * between them, for plans too big to read task by task. Read-only: opening an aggregate
 * switches to the task canvas, fitted to its tasks.
 */
export const OverviewCanvas = memo(function OverviewCanvas({ onOpen, onReady }: { onOpen: (aggregate: Aggregate) => void; onReady?: () => void }) {
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const subgraphs = useEditor((s) => s.doc.subgraphs);
  const groupBy = useCanvasFocus((s) => s.groupBy);
  const overview = useMemo(() => buildOverview(tasks, { groupBy, subgraphs }), [tasks, groupBy, subgraphs]);
  return <OverviewFlow overview={overview} fitKey={groupBy} onOpen={onOpen} onReady={onReady} />;
});

/** The aggregates, their positions and the links between them: all the overview draws. */
export type OverviewPicture = Pick<Overview, 'aggregates' | 'links' | 'positions'>;

/**
 * Draws an overview, from the editor's plan or (while a big plan's tasks load) from the
 * server's. Fitted whole when it opens and whenever `fitKey` changes (the grouping), not on
 * every edit.
 */
export const OverviewFlow = memo(function OverviewFlow({
  overview,
  fitKey,
  onOpen,
  onReady,
}: {
  overview: OverviewPicture;
  fitKey: string;
  onOpen: (aggregate: Aggregate) => void;
  onReady?: () => void;
}) {
  const nodes = useMemo<AggregateNode[]>(
    () =>
      overview.aggregates.map((aggregate) => ({
        id: aggregate.id,
        type: 'aggregate',
        position: overview.positions[aggregate.id]!,
        width: AGGREGATE_SIZE.width,
        height: AGGREGATE_SIZE.height,
        draggable: false,
        selectable: false,
        connectable: false,
        ariaLabel: aggregateTitle(aggregate),
        data: { aggregate },
      })),
    [overview],
  );
  const names = useMemo(() => new Map(overview.aggregates.map((a) => [a.id, a.name])), [overview]);
  const edges = useMemo<Edge[]>(
    () =>
      overview.links.map((link) => ({
        id: link.id,
        source: link.source,
        target: link.target,
        selectable: false,
        focusable: false,
        // Thicker for more dependencies; the exact count is in the label read out.
        style: { strokeWidth: 2 + 2 * Math.log10(link.count), stroke: '#64748b' },
        markerEnd: { type: MarkerType.ArrowClosed, width: 12, height: 12, color: '#64748b' },
        ariaLabel: `${count(link.count)} dependenc${link.count === 1 ? 'y' : 'ies'} from ${names.get(link.source)} to ${names.get(link.target)}`,
      })),
    [overview, names],
  );
  // React Flow lets clicks through to a node only when it has a click handler (these are
  // neither selectable nor draggable); the box's button, clicked or pressed, bubbles here.
  const onNodeClick = useCallback((_: unknown, node: AggregateNode) => onOpen(node.data.aggregate), [onOpen]);
  // Fitted whole when it opens and when its grouping changes; React Flow fits once it has
  // measured the boxes, and from the first fit on the overview is on screen.
  const flow = useReactFlow();
  const told = useRef(false);
  useEffect(() => {
    void flow.fitView(FIT_VIEW_OPTIONS).then(() => {
      if (told.current) return;
      told.current = true;
      onReady?.();
    });
  }, [flow, fitKey, onReady]);
  return (
    <div className="relative h-full w-full">
      <ReactFlow<AggregateNode, Edge>
        aria-label="Plan overview"
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        {...READ_ONLY_CANVAS}
        onNodeClick={onNodeClick}
        minZoom={0.05}
        maxZoom={2}
        proOptions={PRO_OPTIONS}
      >
        <Background gap={24} />
        <PlanMiniMap />
        <Controls aria-label="Zoom controls" showInteractive={false} />
      </ReactFlow>
    </div>
  );
});
