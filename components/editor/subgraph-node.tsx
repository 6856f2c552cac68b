'use client';

import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { SubgraphNode } from '@/lib/flow/plan-to-flow';
import { useEditorStore } from './editor-context';

const plural = (n: number) => `${n} task${n === 1 ? '' : 's'}`;

function SubgraphNodeView({ data }: NodeProps<SubgraphNode>) {
  const store = useEditorStore();
  const { subgraphId, taskCount, collapsed, highlighted } = data;
  const toggle = () => store.getState().toggleCollapsed(subgraphId);
  const ring = highlighted ? 'border-rose-400 ring-4 ring-rose-300' : 'border-indigo-300';

  if (collapsed) {
    return (
      <div className={`flex h-full w-full flex-col justify-between rounded-md border-2 bg-indigo-50 px-3 py-2 shadow-sm ${ring}`}>
        <Handle type="target" position={Position.Left} isConnectable={false} aria-hidden className="!h-3 !w-3 !border-2 !border-white !bg-slate-400" />
        <div className="flex items-center justify-between gap-2 text-xs font-semibold text-indigo-900">
          <span className="truncate font-mono">{subgraphId}</span>
          <button type="button" onClick={toggle} aria-label={`Expand subgraph ${subgraphId}`} className="nodrag rounded border border-indigo-300 bg-white px-1.5 text-[11px] font-medium hover:bg-indigo-100">
            Expand
          </button>
        </div>
        <div className="text-[13px] text-slate-800">Subgraph of {plural(taskCount)}</div>
        <div className="text-[11px] text-slate-500">dispatched as one unit</div>
        <Handle type="source" position={Position.Right} isConnectable={false} aria-hidden className="!h-3 !w-3 !border-2 !border-white !bg-indigo-500" />
      </div>
    );
  }
  return (
    <div className={`h-full w-full rounded-lg border-2 border-dashed bg-indigo-50/40 ${ring}`}>
      <div className="pointer-events-auto flex w-fit items-center gap-2 rounded-br-md rounded-tl-md bg-indigo-100 px-2 py-1 text-[11px] font-semibold text-indigo-900">
        <span className="font-mono">{subgraphId}</span>
        <span className="font-normal text-indigo-700">{plural(taskCount)}</span>
        <button type="button" onClick={toggle} aria-label={`Collapse subgraph ${subgraphId}`} className="nodrag rounded border border-indigo-300 bg-white px-1.5 font-medium hover:bg-indigo-50">
          Collapse
        </button>
      </div>
    </div>
  );
}

export const SubgraphNodeComponent = memo(SubgraphNodeView);
