'use client';

import { Background, Controls, Handle, MarkerType, Position, ReactFlow, ReactFlowProvider, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import type { PlanDocument } from '@/lib/plan';
import type { TaskVerdict } from '@/lib/simulate/task-verdicts';
import { SIM_STYLE } from '@/components/editor/simulation-context';
import { PRO_OPTIONS, READ_ONLY_CANVAS, openFocusedTask } from '@/components/editor/canvas-chrome';
import { useCanvasView, usePlanLayout } from '@/components/editor/use-plan-layout';

// The plan as the dry run sees it: each task coloured by its verdict, read-only. It leaves
// the mouse wheel to the page until the operator clicks into it (or tabs into it), so the
// page scrolls past it; once active, the wheel zooms, until focus leaves.

type DryTaskNode = Node<{ label: string; verdict: TaskVerdict | undefined; selected: boolean; taskId: string }, 'dryTask'>;

const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14 } };
const NODE_TYPES = { dryTask: memo(DryTaskNodeView) };
const FIT = { padding: 0.15, maxZoom: 1.1 };

function DryTaskNodeView({ data }: NodeProps<DryTaskNode>) {
  const style = data.verdict ? SIM_STYLE[data.verdict] : null;
  const border = data.verdict === 'failed' ? 'border-rose-600 border-2' : data.verdict === 'skipped' ? 'border-slate-500 border-2 border-dashed' : 'border-slate-300';
  return (
    <div
      className={`flex h-full w-full flex-col justify-between rounded-md border bg-white px-3 py-2 text-left ${border} ${data.selected ? 'ring-4 ring-brand-500' : ''}`}
      style={{ width: NODE_SIZE.width, height: NODE_SIZE.height }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} aria-hidden className="!h-2 !w-2 !bg-slate-400" />
      <div className="line-clamp-2 text-[13px] leading-snug text-slate-900">{data.label}</div>
      <div className="flex items-center justify-between gap-2 text-[11px] text-slate-600">
        <span className="truncate font-mono">{data.taskId}</span>
        {style && <span className={`shrink-0 rounded px-1 text-[10px] font-semibold ${style.badge}`}>{style.label}</span>}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} aria-hidden className="!h-2 !w-2 !bg-slate-400" />
    </div>
  );
}

export interface DryRunCanvasProps {
  doc: PlanDocument;
  labels: ReadonlyMap<string, string>;
  verdicts: Readonly<Record<string, TaskVerdict>> | undefined;
  selectedId: string | null;
  onSelect: (taskId: string) => void;
}

export function DryRunCanvas(props: DryRunCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas({ doc, labels, verdicts, selectedId, onSelect }: DryRunCanvasProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(false);
  const tasks = doc.plan.planned_tasks;
  const { ready, positionOf } = usePlanLayout(doc);
  const openTask = openFocusedTask(onSelect);
  const nodes = useMemo<DryTaskNode[]>(() => {
    if (!ready) return [];
    return tasks.map((task, i) => ({
      id: task.task_id,
      type: 'dryTask',
      position: positionOf(task.task_id, i),
      width: NODE_SIZE.width,
      height: NODE_SIZE.height,
      draggable: false,
      connectable: false,
      ariaLabel: `${labels.get(task.task_id) ?? task.task_id}${verdicts?.[task.task_id] ? `, ${SIM_STYLE[verdicts[task.task_id]].label}` : ''}`,
      data: { label: labels.get(task.task_id) ?? task.task_id, verdict: verdicts?.[task.task_id], selected: task.task_id === selectedId, taskId: task.task_id },
    }));
  }, [ready, tasks, positionOf, labels, verdicts, selectedId]);
  const edges = useMemo<Edge[]>(() => {
    const ids = new Set(tasks.map((t) => t.task_id));
    return tasks.flatMap((task) => task.dependencies.filter((d) => ids.has(d)).map((d) => ({ id: `${d}->${task.task_id}`, source: d, target: task.task_id })));
  }, [tasks]);

  useCanvasView(ready, selectedId, wrapper, FIT);

  // Active from a click or focus inside until focus or a click goes elsewhere.
  useEffect(() => {
    if (!active) return;
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as globalThis.Node)) setActive(false);
    };
    document.addEventListener('pointerdown', onPointer, true);
    return () => document.removeEventListener('pointerdown', onPointer, true);
  }, [active]);

  return (
    <div
      ref={wrapper}
      className="relative h-full w-full"
      data-active={active || undefined}
      onPointerDown={() => setActive(true)}
      onFocus={() => setActive(true)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setActive(false);
        openTask(event);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as globalThis.Node | null)) setActive(false);
      }}
    >
      {!ready && <p className="absolute inset-0 grid place-items-center text-sm text-slate-600">Laying out the plan…</p>}
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
        {...READ_ONLY_CANVAS}
        onlyRenderVisibleElements={tasks.length > 300}
        minZoom={0.02}
        // The wheel belongs to the page until the canvas is clicked or focused.
        zoomOnScroll={active}
        preventScrolling={active}
        panOnScroll={false}
        zoomOnDoubleClick={active}
        onNodeClick={(_, node) => onSelect(node.id)}
      >
        <Background gap={24} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
      <p className="pointer-events-none absolute right-2 top-2 z-10 rounded bg-white/90 px-2 py-0.5 text-xs text-slate-600 shadow-sm">
        {active ? 'Wheel zooms · Esc or click outside to scroll the page' : 'Click the canvas to zoom with the wheel'}
      </p>
    </div>
  );
}
