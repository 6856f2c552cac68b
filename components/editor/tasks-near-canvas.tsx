'use client';

import { Background, Controls, ReactFlow, useReactFlow, type Edge, type OnMove, type Viewport } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { TasksNear } from '@/lib/plan';
import { createFlowMapper, type TaskNode } from '@/lib/flow/plan-to-flow';
import { OVERVIEW_ZOOM } from '@/lib/flow/overview';
import { boundsOfTasks } from '@/lib/flow/view-window';
import { DEPENDENCY_EDGE_OPTIONS, PRO_OPTIONS, READ_ONLY_CANVAS } from './canvas-chrome';
import { TaskNodeComponent } from './task-node';
import { FIT_TASKS, useFitBounds, whenDrawn } from './use-fit-tasks';

const NODE_TYPES = { task: TaskNodeComponent };
const NOTHING = new Set<string>();
const NO_ISSUES = new Map<string, { count: number; hasError: boolean }>();

/**
 * A link to a task of a big plan, while the plan loads: the tasks saved around it, drawn with
 * the editor's task nodes (subgraph boxes come with the editor), the task selected and fitted
 * as the editor fits it. Read-only. Once fitted it reports where the view is, in the window's
 * coordinates, so the editor takes over with every task where it was on screen.
 */
export const TasksNearFlow = memo(function TasksNearFlow({ near, onMoved, onReady }: { near: TasksNear; onMoved: (viewport: Viewport) => void; onReady: () => void }) {
  const { nodes, edges } = useMemo(() => {
    const input = {
      tasks: near.tasks,
      positions: near.positions,
      selectedTaskIds: new Set([near.taskId]),
      selectedEdgeId: null,
      issuesByTask: NO_ISSUES,
      highlighted: NOTHING,
      readOnly: true,
      subgraphs: [],
      collapsed: NOTHING,
    };
    const mapper = createFlowMapper();
    return { nodes: mapper.nodes(input) as TaskNode[], edges: mapper.edges(input) };
  }, [near]);
  const fitBounds = useFitBounds();
  const flow = useReactFlow();
  const pane = useRef<HTMLDivElement>(null);
  const report = useMemo(
    () => (viewport: Viewport) => {
      const at = pane.current?.getBoundingClientRect();
      if (at) onMoved({ x: viewport.x + at.left, y: viewport.y + at.top, zoom: viewport.zoom });
    },
    [onMoved],
  );
  // Ready once the view is fitted to the task and the task is drawn (the server's HTML holds
  // the nodes already, but not where the view will be).
  // A view it could not fit is not handed over: the editor then fits the task itself.
  useEffect(() => {
    let gone = false;
    const bounds = boundsOfTasks([near.taskId], near.positions);
    void (bounds ? fitBounds(bounds, FIT_TASKS) : Promise.resolve(false)).then(async (fitted) => {
      await whenDrawn(near.taskId);
      if (gone) return;
      if (fitted) report(flow.getViewport());
      onReady();
    });
    return () => {
      gone = true;
    };
  }, [near, fitBounds, flow, report, onReady]);
  const onMoveEnd = useMemo<OnMove>(() => (_, viewport) => report(viewport), [report]);
  return (
    <div ref={pane} className="relative h-full w-full">
      <ReactFlow<TaskNode, Edge>
        aria-label={`Tasks around ${near.taskId}, while the plan loads`}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        {...READ_ONLY_CANVAS}
        onMoveEnd={onMoveEnd}
        // As the editor's canvas of a big plan allows.
        minZoom={OVERVIEW_ZOOM * 0.8}
        maxZoom={2}
        defaultEdgeOptions={DEPENDENCY_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
      >
        <Background gap={24} />
        <Controls aria-label="Zoom controls" showInteractive={false} showFitView={false} />
      </ReactFlow>
    </div>
  );
});
