'use client';

import { Background, Controls, ReactFlow, type Edge, type OnMoveEnd } from '@xyflow/react';
import { memo, useCallback, useState } from 'react';
import type { CanvasNode } from '@/lib/flow/plan-to-flow';
import { OVERVIEW_TASKS, OVERVIEW_ZOOM } from '@/lib/flow/overview';
import { DEPENDENCY_EDGE_OPTIONS, PRO_OPTIONS, PlanMiniMap } from './canvas-chrome';
import { RemovedTaskNodeComponent } from './removed-task-node';
import { SubgraphNodeComponent } from './subgraph-node';
import { TaskNodeComponent } from './task-node';
import { useCanvasArrival } from './use-canvas-arrival';
import { useCanvasCommands } from './use-canvas-commands';
import { useCanvasElements } from './use-canvas-elements';
import { useConnectionEdits } from './use-connection-edits';
import { useEdgeSelection } from './use-edge-selection';
import { useNodeDrag } from './use-node-drag';
import { useViewWindow } from './use-view-window';

// Module-level so their identity never changes: React Flow copies changed props into its
// store, and a fresh object on every render would mean extra store updates per drag frame.
const FIT_VIEW_OPTIONS = { padding: 0.2 };
const DELETE_KEYS = ['Delete', 'Backspace'];
const LARGE_PLAN = 300;
const NODE_TYPES = { task: TaskNodeComponent, subgraph: SubgraphNodeComponent, removed: RemovedTaskNodeComponent };

/** The plan's graph to edit (or, read-only, to review): React Flow wired to the editor's store by the hooks beside it. */
export const EditorCanvas = memo(function EditorCanvas({ onViewportSettled }: { onViewportSettled: OnMoveEnd }) {
  const { pane, openedAt, fitsItself } = useCanvasArrival();
  const { tasks, index, readOnly, nodes, drawn, edgesWithin } = useCanvasElements();
  // A big plan is never fitted whole on this canvas: it opens at a task, a viewport or from the overview.
  const large = tasks.length > OVERVIEW_TASKS;
  const [dragging, setDragging] = useState(false);
  const given = useViewWindow({ large, drawn, edgesWithin, dragging });
  const drag = useNodeDrag({ nodes, given: given.nodes, setDragging });
  const onEdgesChange = useEdgeSelection();
  const connections = useConnectionEdits(tasks, index);
  const commands = useCanvasCommands(readOnly, pane);

  // The pan-zoom machinery outlives a switch of canvas: a wheel gesture on the overview can
  // end (and be reported here) after this canvas took over. It was not about this canvas.
  const [mountedAt] = useState(() => performance.now());
  const onMoveEnd = useCallback<OnMoveEnd>(
    (event, viewport) => {
      if (event && event.timeStamp < mountedAt) return;
      onViewportSettled(event, viewport);
    },
    [mountedAt, onViewportSettled],
  );

  return (
    // Focusable from script only: where the keyboard lands when the element it was on is deleted.
    <div ref={pane} tabIndex={-1} className="relative h-full w-full outline-none" onDoubleClick={commands.onDoubleClick} onKeyDownCapture={commands.onKeyDownCapture}>
      {openedAt !== null && (
        <ReactFlow<CanvasNode, Edge>
          aria-label="Plan graph"
          nodes={given.nodes}
          edges={given.edges}
          nodeTypes={NODE_TYPES}
          onNodesChange={drag.onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeDragStart={drag.onNodeDragStart}
          onNodeDragStop={drag.onNodeDragStop}
          onConnect={connections.onConnect}
          onConnectStart={connections.onConnectStart}
          isValidConnection={connections.isValidConnection}
          onReconnect={connections.onReconnect}
          onReconnectStart={connections.onReconnectStart}
          onReconnectEnd={connections.onReconnectEnd}
          onDelete={commands.onDelete}
          onMoveEnd={onMoveEnd}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          edgesReconnectable={!readOnly}
          deleteKeyCode={readOnly ? null : DELETE_KEYS}
          zoomOnDoubleClick={false}
          onlyRenderVisibleElements={tasks.length > LARGE_PLAN}
          // Zooming a big plan out stops just past the overview's threshold, where it takes over,
          // rather than drawing thousands of unreadable nodes first.
          minZoom={large ? OVERVIEW_ZOOM * 0.8 : 0.05}
          maxZoom={2}
          defaultEdgeOptions={DEPENDENCY_EDGE_OPTIONS}
          proOptions={PRO_OPTIONS}
          fitView={!large && fitsItself}
          fitViewOptions={FIT_VIEW_OPTIONS}
          defaultViewport={openedAt}
        >
          <Background gap={24} />
          {/* Hidden while dragging: it redraws every task on each frame, the largest cost of a drag on big plans. */}
          {/* Nor drawn for a big plan, whose map is the overview (a minimap of thousands of
              tasks cost a third of opening one at a task). */}
          {!dragging && !large && <PlanMiniMap />}
          {/* On a big plan "Fit view" is the toolbar's: it shows the overview. */}
          <Controls aria-label="Zoom controls" showInteractive={false} showFitView={!large} />
        </ReactFlow>
      )}
    </div>
  );
});
