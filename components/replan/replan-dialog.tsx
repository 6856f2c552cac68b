'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { applyReplanAction, proposeReplanAction } from '@/app/plans/[id]/replan-actions';
import { documentOf } from '@/lib/api/schemas';
import { taskLabel } from '@/lib/flow/task-label';
import type { ReplanProposalResponse } from '@/lib/replan/replan-types';
import { useEditor, useEditorStore } from '../editor/editor-context';
import { SidePanel } from '../editor/side-panel';
import { SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { ReplacementCard } from './replacement-card';


/**
 * Seed 000's replanning for the tasks selected when the dialog opened: they are marked
 * for replanning with an optional instruction, the replanner proposes replacements, and
 * the operator accepts or rejects each one. Accepting makes a new revision, which the
 * editor takes as one undo step.
 */
export function ReplanDialog({ taskIds, onClose }: { taskIds: string[]; onClose: () => void }) {
  const store = useEditorStore();
  const router = useRouter();
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const [instructions, setInstructions] = useState('');
  const [proposal, setProposal] = useState<ReplanProposalResponse | null>(null);
  const [accepted, setAccepted] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const byId = new Map(tasks.map((t) => [t.task_id, t]));

  function propose() {
    startTransition(async () => {
      setError(null);
      setProposal(null);
      const { planId, baseRevision } = store.getState();
      try {
        const result = await proposeReplanAction({ id: planId, task_ids: taskIds, instructions, base_revision: baseRevision });
        if (!result.ok) return setError(result.error.message);
        setProposal(result.data);
        setAccepted(new Set(result.data.diff.filter((d) => d.error === null).map((d) => d.replaces)));
      } catch {
        setError('The server could not be reached; nothing was changed.');
      }
    });
  }

  function apply() {
    // Applying replaces the editor's document with the new revision; unsaved edits would vanish.
    if (!proposal || store.getState().doc !== store.getState().savedDoc) return;
    startTransition(async () => {
      setError(null);
      try {
        const result = await applyReplanAction({ id: proposal.plan_id, proposal_id: proposal.proposal_id, accepted_task_ids: [...accepted] });
        if (!result.ok) return setError(result.error.message);
        const state = store.getState();
        state.applySavedRevision(documentOf(result.data.plan), result.data.revision);
        state.setNotice({ kind: 'info', message: `Replaced ${result.data.applied.length} task${result.data.applied.length === 1 ? '' : 's'}: saved as revision ${result.data.revision}`, taskIds: [] });
        router.refresh();
        onClose();
      } catch {
        setError('The server could not be reached; nothing was changed.');
      }
    });
  }

  const toggle = (id: string, on: boolean) => {
    const next = new Set(accepted);
    if (on) next.add(id);
    else next.delete(id);
    setAccepted(next);
  };

  return (
    <SidePanel title="Replan selected tasks" width="w-[34rem]" onClose={onClose}>
      <p className="text-xs text-slate-600">
        Marked for replanning: {taskIds.map((id) => taskLabel(byId.get(id), id)).join(', ')}. Only these are replaced; every dependency into and out of them is
        kept.
      </p>
      {dirty && (
        <p role="alert" className="rounded bg-amber-50 p-2 text-xs text-amber-900">
          Save your changes first: the replanner works on the saved revision.
        </p>
      )}
      <label className="block space-y-1">
        <span className="block text-xs font-medium text-slate-600">Instructions (optional)</span>
        <textarea
          className="w-full rounded border border-slate-300 px-2 py-1 text-sm"
          rows={2}
          maxLength={4000}
          placeholder="e.g. Ensure memory efficiency and clarity."
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
        />
      </label>
      <button type="button" className={SMALL_BUTTON} disabled={pending || dirty} onClick={propose}>
        {pending && !proposal ? 'Proposing…' : 'Propose replacements'}
      </button>
      {error && (
        <p role="alert" className="text-xs text-rose-700">
          {error}
        </p>
      )}
      {proposal && (
        <div className="space-y-3">
          <p className="text-xs text-slate-600">
            Proposed by {proposal.planned_by.label}
            {proposal.notes.length > 0 && `: ${proposal.notes.join(' ')}`}
          </p>
          {proposal.diff.map((d) => (
            <ReplacementCard key={d.replaces} diff={d} label={taskLabel(d.before)} accepted={accepted.has(d.replaces)} onToggle={(on) => toggle(d.replaces, on)} />
          ))}
          <button
            type="button"
            className={SMALL_PRIMARY_BUTTON}
            disabled={pending || dirty || accepted.size === 0}
            onClick={apply}
          >
            Apply {accepted.size} accepted
          </button>
        </div>
      )}
    </SidePanel>
  );
}
