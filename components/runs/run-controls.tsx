'use client';

import { controlRunAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import { FINISHED_RUN_STATES, type RunState } from '@/lib/runs/run-states';
import { runKey } from './use-live-run';

const PAUSABLE = new Set<RunState>(['running', 'awaiting_approval', 'needs_replan']);

/** Pause or resume the run, or cancel it (calls in flight are aborted). */
export function RunControls({ runId, state }: { runId: string; state: RunState }) {
  const control = useServerAction(controlRunAction, { refresh: 'never', invalidate: [runKey(runId)] });
  if (FINISHED_RUN_STATES.has(state)) return null;
  const send = (what: 'cancel' | 'pause' | 'resume') => void control.run({ runId, control: what });
  return (
    <span className="flex items-center gap-2">
      {PAUSABLE.has(state) && (
        <button type="button" className={SMALL_BUTTON} disabled={control.pending} onClick={() => send('pause')}>
          Pause
        </button>
      )}
      {state === 'paused' && (
        <button type="button" className={SMALL_BUTTON} disabled={control.pending} onClick={() => send('resume')}>
          Resume
        </button>
      )}
      <button type="button" className={`${SMALL_BUTTON} text-rose-700`} disabled={control.pending} onClick={() => send('cancel')}>
        Cancel run
      </button>
      <ActionError message={control.error} />
    </span>
  );
}
