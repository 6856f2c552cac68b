'use client';

import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo, useContext, useMemo } from 'react';
import { RunStateContext } from '@/components/runs/run-state-context';
import { aggregateLevels, aggregateTitle, type Aggregate } from '@/lib/flow/overview';
import { useCanvasFocus } from './canvas-focus';
import { ReviewMarksContext } from './review-marks-context';

export type AggregateNode = Node<{ aggregate: Aggregate }, 'aggregate'>;

const count = (n: number) => n.toLocaleString('en-US');

/** How many of the aggregate's tasks the search matched (null: no search), and whether "show upstream/downstream" leaves it out. */
function useAggregateEmphasis(aggregate: Aggregate): { matches: number | null; outside: boolean } {
  const matches = useCanvasFocus((s) => {
    if (!s.matches) return null;
    let found = 0;
    for (const id of aggregate.taskIds) if (s.matchSet.has(id)) found++;
    return found;
  });
  const outside = useCanvasFocus((s) => s.related !== null && !aggregate.taskIds.some((id) => s.related!.has(id)));
  return { matches, outside };
}

/** What the review page or the run view knows of the aggregate's tasks: "12 changed", "1,800 done · 2 failed". */
function useAggregateStatus(aggregate: Aggregate): string | null {
  const review = useContext(ReviewMarksContext);
  const run = useContext(RunStateContext);
  return useMemo(() => {
    if (run) {
      const by = { succeeded: 0, failed: 0, running: 0, awaiting_approval: 0 } as Record<string, number>;
      for (const id of aggregate.taskIds) {
        const state = run.get(id);
        if (state && state in by) by[state]! += 1;
      }
      const parts = [
        by.succeeded ? `${count(by.succeeded)} done` : '',
        by.failed ? `${count(by.failed)} failed` : '',
        by.running ? `${count(by.running)} running` : '',
        by.awaiting_approval ? `${count(by.awaiting_approval)} at a gate` : '',
      ].filter(Boolean);
      return parts.length ? parts.join(' · ') : null;
    }
    if (review) {
      const changed = aggregate.taskIds.filter((id) => review.marks.has(id)).length;
      return changed ? `${count(changed)} changed` : null;
    }
    return null;
  }, [aggregate, review, run]);
}

// The text is large on purpose: when the whole overview of a big plan fits the screen the
// canvas is zoomed to about a third, and these labels must still read at 11 px or more.
function AggregateNodeView({ data }: NodeProps<AggregateNode>) {
  const { aggregate } = data;
  const { matches, outside } = useAggregateEmphasis(aggregate);
  const status = useAggregateStatus(aggregate);
  const size = aggregate.taskIds.length;
  const dim = matches === 0 || outside;
  const found = matches ? `${count(matches)} match${matches === 1 ? '' : 'es'}` : null;
  return (
    <div className={`relative h-full w-full ${dim ? 'opacity-30' : ''}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} aria-hidden className="!invisible" />
      {/* Opened by the overview's node click handler, which a click or Enter here reaches. */}
      <button
        type="button"
        title={aggregateTitle(aggregate)}
        aria-label={`${aggregateTitle(aggregate)} task${size === 1 ? '' : 's'}, ${aggregateLevels(aggregate).toLowerCase()}${status ? `, ${status}` : ''}${found ? `, ${found}` : ''}: show its tasks`}
        className={`flex h-full w-full flex-col justify-center rounded-xl border-2 px-4 text-left shadow-sm hover:border-brand-600 focus-visible:outline focus-visible:outline-8 focus-visible:outline-brand-600 ${
          found ? 'border-amber-500 bg-amber-50 ring-8 ring-amber-300' : aggregate.merged ? 'border-dashed border-slate-400 bg-slate-50' : 'border-slate-300 bg-white'
        }`}
      >
        {/* Wrapped, broken anywhere if it must be: two aggregates must not read alike. A name
            longer than the box holds is cut, and read whole in the title and the accessible name. */}
        <span
          data-aggregate-label
          className={`${status ? 'line-clamp-2' : 'line-clamp-3'} text-[36px] font-semibold leading-[1.15] text-slate-900 [overflow-wrap:anywhere]`}
        >
          {aggregate.name}
        </span>
        <span data-aggregate-label className="block text-[36px] leading-[1.15] text-slate-700">
          × {count(size)}
        </span>
        {status && <span className="block truncate text-[26px] font-medium leading-tight text-brand-700">{status}</span>}
      </button>
      {found && (
        <span aria-hidden className="absolute -top-12 right-0 rounded-md bg-amber-100 px-2 text-[30px] font-semibold text-amber-950">
          {found}
        </span>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} aria-hidden className="!invisible" />
    </div>
  );
}

export const AggregateNodeComponent = memo(AggregateNodeView);
