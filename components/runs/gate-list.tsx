'use client';

import { useId, useState } from 'react';
import { decideGateAction } from '@/app/runs/run-actions';
import { ActionError } from '@/components/form/action-error';
import { PANEL_INPUT, SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import type { TaskRunView } from '@/lib/api/run-schemas';
import { runKey } from './use-live-run';

/** Why the viewer cannot decide, or null when they can. */
export type GateRefusal = string | null;

function Gate({ runId, task, label, refusal }: { runId: string; task: TaskRunView; label: string; refusal: GateRefusal }) {
  const [comment, setComment] = useState('');
  const commentId = useId();
  const decide = useServerAction(decideGateAction, { refresh: 'never', invalidate: [runKey(runId)] });
  const send = (decision: 'approve' | 'reject') => void decide.run({ runId, taskId: task.task_id, decision, request: { comment } });
  return (
    <li>
      <section aria-label={`Gate ${label}`} className="space-y-2 rounded border border-violet-200 bg-violet-50 p-3 text-sm">
        <h3 className="font-semibold">{label}</h3>
        <p className="text-xs text-slate-700">Its dependencies are done; it runs with this input once approved.</p>
        <pre aria-label={`Input of ${label}`} tabIndex={0} className="max-h-40 overflow-auto rounded bg-white p-2 font-mono text-[11px]">
          {JSON.stringify(task.input, null, 2)}
        </pre>
        {refusal ? (
          <p className="text-xs text-slate-700">{refusal}</p>
        ) : (
          <>
            <label htmlFor={commentId} className="block text-xs font-medium text-slate-700">
              Comment (optional)
            </label>
            <textarea id={commentId} className={`${PANEL_INPUT} w-full`} rows={2} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />
            <div className="flex gap-2">
              <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={decide.pending} onClick={() => send('approve')}>
                Approve
              </button>
              <button type="button" className={SMALL_BUTTON} disabled={decide.pending} onClick={() => send('reject')}>
                Reject
              </button>
            </div>
            <ActionError message={decide.error} className="block text-xs text-rose-700" />
          </>
        )}
      </section>
    </li>
  );
}

/** The tasks waiting at their gates; each is decided on its own. */
export function GateList({ runId, gates, labels, refusal }: { runId: string; gates: TaskRunView[]; labels: ReadonlyMap<string, string>; refusal: GateRefusal }) {
  if (!gates.length) return null;
  return (
    <section aria-labelledby="gates-heading" className="space-y-2">
      <h2 id="gates-heading" className="text-sm font-semibold">
        Waiting for approval ({gates.length})
      </h2>
      <ul className="grid gap-2 md:grid-cols-2">
        {gates.map((task) => (
          <Gate key={task.task_id} runId={runId} task={task} label={labels.get(task.task_id) ?? task.task_id} refusal={refusal} />
        ))}
      </ul>
    </section>
  );
}
