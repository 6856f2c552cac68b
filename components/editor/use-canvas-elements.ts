'use client';

import { useCallback, useContext, useMemo } from 'react';
import { createFlowMapper, type CanvasNode } from '@/lib/flow/plan-to-flow';
import { removedTaskNodes } from '@/lib/flow/review-marks';
import { buildGraphIndex } from '@/lib/graph';
import { useEditor } from './editor-context';
import { ReviewMarksContext } from './review-marks-context';
import { useValidation } from './use-validation';

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The plan as React Flow nodes and edges: tasks, subgraph boxes, selection, issues, the notice's
 * highlighted tasks and, on the review canvas, its marks and the tasks removed since the base
 * revision (dashed, drawn after the layout).
 */
export function useCanvasElements() {
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const savedPositions = useEditor((s) => s.doc.view.positions);
  const selectedTaskIds = useEditor((s) => s.selectedTaskIds);
  const selectedEdgeId = useEditor((s) => s.selectedEdgeId);
  const notice = useEditor((s) => s.notice);
  const readOnly = useEditor((s) => s.readOnly);
  const subgraphs = useEditor((s) => s.doc.subgraphs);
  const collapsedIds = useEditor((s) => s.collapsed);
  const { byTask } = useValidation();
  const review = useContext(ReviewMarksContext);
  const mapper = useMemo(() => createFlowMapper(), []);

  const index = useMemo(() => buildGraphIndex(tasks), [tasks]);
  const selected = useMemo(() => new Set(selectedTaskIds), [selectedTaskIds]);
  const highlighted = useMemo(() => (notice?.taskIds.length ? new Set(notice.taskIds) : EMPTY), [notice]);
  const collapsed = useMemo(() => (collapsedIds.length ? new Set(collapsedIds) : EMPTY), [collapsedIds]);
  const inputs = useMemo(
    () => ({ tasks, positions: savedPositions, selectedTaskIds: selected, selectedEdgeId, issuesByTask: byTask, highlighted, readOnly, subgraphs, collapsed, reviewMarks: review?.marks }),
    [tasks, savedPositions, selected, selectedEdgeId, byTask, highlighted, readOnly, subgraphs, collapsed, review],
  );
  const nodes = useMemo(() => mapper.nodes(inputs), [mapper, inputs]);
  const removed = useMemo(() => removedTaskNodes(review?.removed ?? [], tasks, savedPositions), [review, tasks, savedPositions]);
  const drawn = useMemo<CanvasNode[]>(() => (removed.length ? [...nodes, ...removed] : nodes), [nodes, removed]);
  // Edges depend on neither positions, the selected tasks nor issues: dragging a node,
  // selecting one or the plan's validation never rebuilds them. `within` names the nodes a big
  // plan's canvas is given (use-view-window.ts); null, every edge.
  const edgeInputs = useMemo(() => ({ tasks, selectedEdgeId, highlighted, readOnly, subgraphs, collapsed }), [tasks, selectedEdgeId, highlighted, readOnly, subgraphs, collapsed]);
  const edgesWithin = useCallback((within: ReadonlySet<string> | null) => mapper.edges(edgeInputs, within ?? undefined), [mapper, edgeInputs]);
  return { tasks, index, readOnly, nodes, drawn, edgesWithin };
}
