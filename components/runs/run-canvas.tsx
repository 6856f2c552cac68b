'use client';

import { Background, Controls, Handle, Position, ReactFlow, ReactFlowProvider, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useMemo, useRef } from 'react';
import { DEPENDENCY_EDGE_OPTIONS, PRO_OPTIONS, READ_ONLY_CANVAS, openFocusedTask } from '@/components/editor/canvas-chrome';
import { useCanvasView, usePlanLayout } from '@/components/editor/use-plan-layout';
import type { TaskRunView } from '@/lib/api/run-schemas';
import { NODE_SIZE } from '@/lib/layout/elk-graph';
import type { PlanDocument } from '@/lib/plan';
import { TASK_STATE_STYLE, attemptsText, taskDuration } from './run-state-style';

// The run as a graph, read-only: every task says its name, its state in words, icon and
// colour, its attempts and how long it took; the path from a failed task through the tasks
// it blocked is drawn in red. The wheel scrolls the page (Ctrl + wheel or the buttons zoom),
// so the timeline below stays reachable.

type RunTaskNode = Node<{ label: string; task: TaskRunView | undefined; selected: boolean; now: number }, 'runTask'>;

const NODE_TYPES = { runTask: memo(RunTaskNodeView) };
const FIT = { padding: 0.12, maxZoom: 1 };
const FAILED_PATH = new Set(['failed', 'blocked']);
const FAILED_EDGE_STYLE = { stroke: '#be123c', strokeWidth: 2.5, strokeDasharray: '6 4' };

function RunTaskNodeView({ data }: NodeProps<RunTaskNode>) {
  const { task, label, selected, now } = data;
  const style = task ? TASK_STATE_STYLE[task.state] : null;
  const duration = task ? taskDuration(task, now) : null;
  return (
    <div
      className={`flex h-full w-full flex-col justify-between rounded-md border-2 px-3 py-1.5 text-left ${style ? `${style.node} ${style.border}` : 'border-slate-300 bg-white'} ${selected ? 'ring-4 ring-brand-500' : ''}`}
      style={{ width: NODE_SIZE.width, height: NODE_SIZE.height }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} aria-hidden className="!h-2 !w-2 !bg-slate-400" />
      <div className="flex items-center justify-between gap-2 text-[11px]">
        {style && (
          <span className={`flex shrink-0 items-center gap-1 rounded px-1 font-semibold ${style.badge}`}>
            <span aria-hidden>{style.icon}</span>
            {style.label}
          </span>
        )}
        <span className="truncate text-slate-700">{[task && (task.carried_from || task.attempts > 0) ? attemptsText(task) : null, duration].filter(Boolean).join(' · ')}</span>
      </div>
      <div className="line-clamp-2 text-[13px] font-medium leading-snug text-slate-900">{label}</div>
      <div className="flex items-center justify-between gap-2 text-[11px] text-slate-700">
        <span className="truncate font-mono">{task?.task_id}</span>
        {task?.gate?.edited && <span className="shrink-0 rounded bg-violet-100 px-1 font-semibold text-violet-900">input edited</span>}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} aria-hidden className="!h-2 !w-2 !bg-slate-400" />
    </div>
  );
}

/** What a screen reader hears for a task: "Task Fetch shipments, failed, 3 attempts, 1.2 s". */
function accessibleName(label: string, task: TaskRunView | undefined, now: number): string {
  if (!task) return `Task ${label}`;
  const parts = [`Task ${label}`, TASK_STATE_STYLE[task.state].label];
  if (task.carried_from || task.attempts > 0) parts.push(attemptsText(task));
  const duration = taskDuration(task, now);
  if (duration) parts.push(duration);
  return parts.join(', ');
}

export interface RunCanvasProps {
  doc: PlanDocument;
  tasks: ReadonlyMap<string, TaskRunView>;
  labels: ReadonlyMap<string, string>;
  selectedId: string | null;
  onSelect: (taskId: string) => void;
  /** When the run's data was read: running tasks' durations count to it. */
  now: number;
}

export function RunCanvas(props: RunCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas({ doc, tasks: states, labels, selectedId, onSelect, now }: RunCanvasProps) {
  const wrapper = useRef<HTMLDivElement>(null);
  const tasks = doc.plan.planned_tasks;
  const { ready, positionOf } = usePlanLayout(doc);
  const nodes = useMemo<RunTaskNode[]>(() => {
    if (!ready) return [];
    return tasks.map((task, i) => {
      const label = labels.get(task.task_id) ?? task.task_id;
      const run = states.get(task.task_id);
      return {
        id: task.task_id,
        type: 'runTask',
        position: positionOf(task.task_id, i),
        width: NODE_SIZE.width,
        height: NODE_SIZE.height,
        draggable: false,
        connectable: false,
        ariaLabel: accessibleName(label, run, now),
        data: { label, task: run, selected: task.task_id === selectedId, now },
      };
    });
  }, [ready, tasks, positionOf, labels, states, selectedId, now]);
  const edges = useMemo<Edge[]>(() => {
    const ids = new Set(tasks.map((t) => t.task_id));
    return tasks.flatMap((task) =>
      task.dependencies
        .filter((d) => ids.has(d))
        .map((d) => {
          // An edge out of a failed or blocked task into a blocked one is the failure's path.
          const onFailedPath = FAILED_PATH.has(states.get(d)?.state ?? '') && states.get(task.task_id)?.state === 'blocked';
          return { id: `${d}->${task.task_id}`, source: d, target: task.task_id, ...(onFailedPath ? { style: FAILED_EDGE_STYLE, animated: true } : {}) };
        }),
    );
  }, [tasks, states]);

  useCanvasView(ready, selectedId, wrapper, FIT);

  return (
    <div
      ref={wrapper}
      className="relative h-full w-full"
      onKeyDown={openFocusedTask(onSelect)}
    >
      {!ready && <p className="absolute inset-0 grid place-items-center text-sm text-slate-600">Laying out the plan…</p>}
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        defaultEdgeOptions={DEPENDENCY_EDGE_OPTIONS}
        proOptions={PRO_OPTIONS}
        {...READ_ONLY_CANVAS}
        onlyRenderVisibleElements={tasks.length > 300}
        minZoom={0.02}
        zoomOnScroll={false}
        preventScrolling={false}
        onNodeClick={(_, node) => onSelect(node.id)}
      >
        <Background gap={24} size={1} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
