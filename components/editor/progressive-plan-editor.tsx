'use client';

import { ReactFlowProvider, type Viewport } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { SECONDARY_BUTTON } from '@/components/form/styles';
import type { Aggregate, GroupBy } from '@/lib/flow/overview';
import type { PlanDocument, TasksNear } from '@/lib/plan';
import { EditorFrame } from './editor-frame';
import { OverviewFlow, type OverviewPicture } from './overview-canvas';
import { PlanEditor, type PlanEditorProps } from './plan-editor';
import { planRevisionQuery } from './plan-revision-query';
import { TasksNearFlow } from './tasks-near-canvas';

export interface ProgressivePlanEditorProps extends Omit<PlanEditorProps, 'doc' | 'openTasks' | 'openedAt'> {
  /** The revision's document, when the page carries it (a plan small enough). */
  doc?: PlanDocument;
  /**
   * Otherwise how many tasks it has and what is drawn while they load: the tasks around the
   * task the link names, or the server's overview.
   */
  loading?: { taskCount: number } & ({ near: TasksNear } | { overview: OverviewPicture & { groupBy: GroupBy } });
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The plan page's editor. A plan small enough comes with its document. A big one opens
 * progressively: the server's overview, or the tasks around the task the link names, are on
 * screen at once, read-only, while the revision's tasks load; then the editor takes over, on
 * the overview, at the task (where the view was moved to meanwhile) or viewport the link
 * names, or on the tasks of an aggregate opened meanwhile.
 *
 * The page renders again (a save elsewhere or a status change seen by the live bar, a
 * replan) with the head's revision and, if the plan crossed the size, the other way of
 * opening. Like the editor's store, this keeps what it opened with, so the editor and its
 * unsaved edits stay.
 */
export function ProgressivePlanEditor({ doc: carried, loading: carriedLoading, ...props }: ProgressivePlanEditorProps) {
  const client = useQueryClient();
  const [opening] = useState(() => {
    // Asked for as hydration starts, not once it has committed: the page's head has preloaded the
    // answer, and its parse then fills the gaps hydration leaves instead of following it.
    if (!carried && typeof window !== 'undefined') void client.prefetchQuery(planRevisionQuery(props.planId, props.revision));
    return { revision: props.revision, doc: carried, loading: carriedLoading };
  });
  const { revision } = opening;
  const query = useQuery({ ...planRevisionQuery(props.planId, revision), enabled: !opening.doc });
  const doc = opening.doc ?? query.data;
  const [opened, setOpened] = useState<readonly string[] | undefined>();
  const onOpen = useCallback((aggregate: Aggregate) => setOpened(aggregate.taskIds), []);
  // A link to a task or a viewport is ready when the editor shows it, not the overview.
  const search = useSearchParams();
  const [linkedTask] = useState(() => search.get('task'));
  const [linked] = useState(() => search.has('task') || search.has('view'));
  const near = opening.loading && 'near' in opening.loading ? opening.loading.near : null;
  // The canvas can be read from here (the overview, or the linked task drawn); `npm run bench` reads this mark.
  const markReady = useCallback(() => (!linked || near) && requestAnimationFrame(() => performance.mark('plangate:canvas-ready')), [linked, near]);
  // Where the tasks around the linked task were looked at: the editor opens there.
  const [openedAt, setOpenedAt] = useState<Viewport | undefined>();
  const loadedLater = !opening.doc && doc !== undefined;
  // When the editor takes over; `npm run bench` reports it beside the overview's time.
  useEffect(() => {
    if (loadedLater) performance.mark('plangate:tasks-ready');
  }, [loadedLater]);
  if (doc) return <PlanEditor {...props} revision={revision} doc={doc} openTasks={opened} openedAt={near ? openedAt : undefined} />;
  const { taskCount } = opening.loading!;
  // The editor's frame (outline, issues, inspector), so nothing moves when it takes over.
  return (
    <div className="flex h-full flex-col">
      <div className="flex min-h-11 items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 text-sm">
        {query.error ? (
          <>
            <p role="alert" className="text-red-800">
              The plan&apos;s tasks could not be loaded: {query.error.message}
            </p>
            <button type="button" className={SECONDARY_BUTTON} onClick={() => void query.refetch()}>
              Try again
            </button>
          </>
        ) : (
          <p role="status" className="text-slate-700">
            {`Loading the plan's ${count(taskCount)} tasks`}
            {near
              ? `… Meanwhile the ${count(near.tasks.length)} tasks around task ${near.taskId} are shown, read-only.`
              : opened
                ? `, then opening ${count(opened.length)} of them…`
                : linkedTask
                  ? `, then opening task ${linkedTask}…`
                  : '…'}
          </p>
        )}
      </div>
      <EditorFrame
        canvas={
          near ? (
            <TasksNearFlow near={near} onMoved={setOpenedAt} onReady={markReady} />
          ) : (
            'overview' in opening.loading! && (
              <ReactFlowProvider>
                <OverviewFlow overview={opening.loading.overview} fitKey={opening.loading.overview.groupBy} onOpen={onOpen} onReady={markReady} />
              </ReactFlowProvider>
            )
          )
        }
      />
    </div>
  );
}
