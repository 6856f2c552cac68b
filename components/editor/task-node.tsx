'use client';

import { Handle, Position, useStore, type NodeProps } from '@xyflow/react';
import { memo, useContext } from 'react';
import type { TaskNode } from '@/lib/flow/plan-to-flow';
import { shortTag, splitDistinctLabel } from '@/lib/flow/task-label';
// The modules themselves, not the '@/lib/plan' barrel: the read-only preview draws these nodes
// before the editor's code (and zod, which the barrel's schemas need) has loaded.
import { executionKind } from '@/lib/plan/execution-kind';
import { OTHER_EXECUTION_TYPE, executionTypeDescriptor } from '@/lib/plan/execution-types';
import { CommentCountBadge } from '@/components/comments/comment-count-badge';
import { RunStateContext } from '@/components/runs/run-state-context';
import { TASK_STATE_STYLE } from '@/components/runs/run-state-style';
import { useTaskEmphasis } from './canvas-focus';
import { MARK_STYLE, ReviewMarkBadge, ReviewMarksContext } from './review-marks-context';
import { SIM_STYLE, SimulationContext } from './simulation-context';


// Below this zoom the text is unreadable anyway; drawing a plain box keeps a 2,000-task
// canvas light while zoomed out.
const DETAIL_ZOOM = 0.45;
const zoomedOut = (s: { transform: [number, number, number] }) => s.transform[2] < DETAIL_ZOOM;

function TaskNodeView({ data, selected }: NodeProps<TaskNode>) {
  const { task, label, issueCount, hasError, highlighted, readOnly, elementTiming } = data;
  // On the element holding the label's text, as Element Timing asks (React passes the attribute through).
  const timing = elementTiming ? { elementtiming: elementTiming } : {};
  const { name, tag } = splitDistinctLabel(label, task.task_id);
  // Seed 000's l2_task is drawn as its sub_type's kind; the stored spelling is unchanged.
  const kind = executionKind(task);
  const known = executionTypeDescriptor(kind);
  const style = known ?? OTHER_EXECUTION_TYPE;
  const simple = useStore(zoomedOut);
  const target = task.agent_id ?? task.tool_id ?? task.function_id;
  const simulated = useContext(SimulationContext)?.get(task.task_id);
  const mark = useContext(ReviewMarksContext)?.marks.get(task.task_id);
  const runState = useContext(RunStateContext)?.get(task.task_id);
  const emphasis = useTaskEmphasis(task.task_id);
  const found = emphasis.startsWith('current') ? 'Current match' : emphasis.startsWith('match') ? 'Match' : null;
  const ring = highlighted
    ? 'ring-4 ring-rose-400'
    : found
      ? `ring-4 ${found === 'Match' ? 'ring-amber-300' : 'ring-amber-500'}`
      : selected
        ? 'ring-2 ring-brand-500'
        : hasError
          ? 'ring-1 ring-rose-300'
          : '';
  return (
    <div
      className={`relative h-full w-full rounded-md border border-slate-200 border-l-4 ${runState ? TASK_STATE_STYLE[runState].node : 'bg-white'} ${style.accent} ${ring} ${mark ? MARK_STYLE[mark.kind].outline : ''} ${emphasis.endsWith('dim') ? 'opacity-25' : ''}`}
    >
      {mark && !simple && <ReviewMarkBadge mark={mark} />}
      <Handle
        type="target"
        position={Position.Left}
        isConnectable={!readOnly}
        // A handle is a mouse target only (dependencies are edited by keyboard in the
        // inspector), so it is kept out of the accessibility tree; a plain div may not carry
        // an aria-label that assistive technology would read. The label names it for tests.
        aria-hidden
        aria-label={`Input of ${label}`}
        className="!h-3 !w-3 !border-2 !border-white !bg-slate-400"
      />
      {simple ? null : (
        <div className="flex h-full flex-col justify-between px-3 py-2 text-left">
          <div className="flex items-center justify-between gap-2 text-xs">
            <span className="flex items-center gap-1 font-medium">
              <span aria-hidden>{style.icon}</span>
              {kind && !known ? kind : style.label}
            </span>
            <span className="flex items-center gap-1">
              {found && <span className="rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-900">{found}</span>}
              {simulated && (
                <span title={`Dry run: ${SIM_STYLE[simulated].label}`} className={`rounded px-1 text-[10px] font-semibold ${SIM_STYLE[simulated].badge}`}>
                  {SIM_STYLE[simulated].label}
                </span>
              )}
              {task.mark_replan && (
                <span title="Marked for replanning" className="rounded bg-indigo-100 px-1 text-[10px] font-semibold text-indigo-800">
                  replan
                </span>
              )}
              <CommentCountBadge taskId={task.task_id} />
              {issueCount > 0 && (
                <span
                  title={`${issueCount} validation issue${issueCount === 1 ? '' : 's'}`}
                  className={`rounded-full px-1.5 text-[10px] font-bold ${hasError ? 'bg-rose-600 text-white' : 'bg-amber-400 text-amber-950'}`}
                >
                  {issueCount}
                </span>
              )}
            </span>
          </div>
          {tag ? (
            // A name another task shares: one line of it, and the id that tells them apart, whole.
            <div className="min-w-0 text-[13px] leading-snug text-slate-900">
              <div className="truncate" {...timing}>
                {name}
              </div>
              <div className="truncate font-mono text-[11px] text-slate-700">{shortTag(tag, 34)}</div>
            </div>
          ) : (
            <div className="line-clamp-2 text-[13px] leading-snug text-slate-900" {...timing}>
              {label}
            </div>
          )}
          <div className="flex items-center justify-between gap-2 text-[11px] text-slate-500">
            <span className="truncate font-mono">{target ?? task.task_id}</span>
            {runState ? (
              <span className={`shrink-0 rounded px-1 font-semibold ${TASK_STATE_STYLE[runState].badge}`}>{TASK_STATE_STYLE[runState].label}</span>
            ) : (
              <span className="shrink-0">{task.status}</span>
            )}
          </div>
        </div>
      )}
      <Handle
        type="source"
        position={Position.Right}
        isConnectable={!readOnly}
        aria-hidden
        aria-label={`Add a dependency from ${label}`}
        className="!h-3 !w-3 !border-2 !border-white !bg-brand-600"
      />
    </div>
  );
}

export const TaskNodeComponent = memo(TaskNodeView);
