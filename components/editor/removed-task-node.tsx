'use client';

import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { RemovedTaskNode } from '@/lib/flow/review-marks';
import { MARK_STYLE } from '@/components/review/mark-style';

/** A task the reviewed revision removed, drawn dashed where it was: for reading, never for editing (no handles). */
function RemovedTaskNodeView({ data }: NodeProps<RemovedTaskNode>) {
  const { task } = data;
  const style = MARK_STYLE.removed;
  return (
    <div className="flex h-full w-full flex-col justify-between rounded-md border-2 border-dashed border-slate-400 bg-slate-50 px-3 py-2 text-left">
      <span className={`self-start rounded px-1 text-[10px] font-semibold ${style.badge}`}>
        <span aria-hidden>{style.symbol}</span> {style.label}
      </span>
      <div className="line-clamp-2 text-[13px] leading-snug text-slate-700 line-through">{task.label}</div>
      <div className="truncate font-mono text-[11px] text-slate-600">
        {task.replacedBy.length ? `replaced by ${task.replacedBy.join(', ')}` : task.task_id}
      </div>
    </div>
  );
}

export const RemovedTaskNodeComponent = memo(RemovedTaskNodeView);
