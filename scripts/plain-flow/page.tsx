/**
 * The baseline `npm run bench` compares Plangate's editor with: a minimal React Flow page
 * (the repo's own @xyflow/react, default nodes, background, controls, minimap, only the
 * visible elements rendered), drawing the graph the bench serves at /graph/<name>.json.
 * It marks `plain:canvas-ready` one frame after its first nodes are in the DOM, as the
 * editor marks `plangate:canvas-ready`; `?task=<id>` opens it at that node. Bundled and served by ./serve.ts; not part of the app.
 */
import { Background, Controls, MiniMap, ReactFlow, useEdgesState, useNodesState, type Edge, type Node } from '@xyflow/react';
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';

export interface PlainGraph {
  nodes: Node[];
  edges: Edge[];
}

let marked = false;

function markWhenDrawn() {
  if (marked) return;
  if (document.querySelector('.react-flow__node')) {
    marked = true;
    requestAnimationFrame(() => performance.mark('plain:canvas-ready'));
  } else {
    requestAnimationFrame(markWhenDrawn);
  }
}

const params = new URLSearchParams(location.search);
// `?task=<id>` opens fitted to that node, as the editor opens a link to a task, so both drag it at the same zoom.
const task = params.get('task');

function PlainFlow({ graph }: { graph: PlainGraph }) {
  // Controlled, as the React Flow docs' examples are: a drag sets the nodes' state each move.
  const [nodes, , onNodesChange] = useNodesState(graph.nodes);
  const [edges, , onEdgesChange] = useEdgesState(graph.edges);
  useEffect(markWhenDrawn, []);
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onInit={(flow) => task && void flow.fitView({ nodes: [{ id: task }], maxZoom: 1.1, padding: 0.4 })}
      onlyRenderVisibleElements
      fitView={!task}
      nodesDraggable
    >
      <Background />
      <Controls />
      <MiniMap />
    </ReactFlow>
  );
}

void fetch(`/graph/${encodeURIComponent(params.get('graph') ?? '')}.json`)
  .then((response) => response.json() as Promise<PlainGraph>)
  .then((graph) => createRoot(document.getElementById('root')!).render(<PlainFlow graph={graph} />));
