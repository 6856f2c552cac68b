'use client';

import { controlRunAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { ConfirmButton } from '@/components/form/confirm-dialog';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import type { RunResponse } from '@/lib/api/run-schemas';
import { FINISHED_RUN_STATES, type TaskState } from '@/lib/runs/run-states';
import { runKey } from './use-live-run';

// A pause holds what has not started yet: it applies while something is still to start or under way.
const UNDER_WAY = new Set<TaskState>(['pending', 'running', 'retrying', 'awaiting_approval']);

/** Pause or resume the run, or cancel it (asked first: calls in flight are aborted). Only what applies is offered. */
export function RunControls({ run }: { run: Pick<RunResponse, 'run_id' | 'state' | 'counts'> }) {
  const { run_id: runId, state } = run;
  const control = useServerAction(controlRunAction, { refresh: 'never', invalidate: [runKey(runId)] });
  if (FINISHED_RUN_STATES.has(state)) return null;
  const underWay = Object.entries(run.counts).some(([s, n]) => n > 0 && UNDER_WAY.has(s as TaskState));
  const send = (what: 'cancel' | 'pause' | 'resume') => void control.run({ runId, control: what });
  return (
    <span className="flex items-center gap-2">
      {state !== 'paused' && underWay && (
        <button type="button" className={SMALL_BUTTON} disabled={control.pending} onClick={() => send('pause')}>
          Pause
        </button>
      )}
      {state === 'paused' && (
        <button type="button" className={SMALL_BUTTON} disabled={control.pending} onClick={() => send('resume')}>
          Resume
        </button>
      )}
      <ConfirmButton
        label="Cancel run"
        title="Cancel this run?"
        confirmLabel="Cancel run"
        className={`${SMALL_BUTTON} text-rose-800`}
        confirmClassName="rounded-md bg-rose-700 px-3 py-1.5 text-xs font-semibold text-white hover:bg-rose-800"
        disabled={control.pending}
        onConfirm={() => send('cancel')}
      >
        Calls under way are aborted and nothing more of this run starts; it cannot be resumed. Its completed tasks can still be carried into a run of a newer revision.
      </ConfirmButton>
      <ActionError message={control.error} />
    </span>
  );
}
