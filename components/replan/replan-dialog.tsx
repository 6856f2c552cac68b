'use client';

import { useState } from 'react';
import { applyReplanAction, proposeReplanAction } from '@/app/plans/[id]/replan-actions';
import { documentOf } from '@/lib/api/schemas';
import { taskLabel } from '@/lib/flow/task-label';
import { useEditor, useEditorStore } from '../editor/editor-context';
import { SidePanel } from '../editor/side-panel';
import { ActionError } from '@/components/form/action-error';
import { PanelField } from '@/components/form/panel-field';
import { PANEL_INPUT, SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import { ReplacementCard } from './replacement-card';

/**
 * Seed 000's replanning for the tasks selected when the dialog opened: they are marked
 * for replanning with an optional instruction, the replanner proposes replacements, and
 * the operator accepts or rejects each one. Accepting makes a new revision, which the
 * editor takes as one undo step.
 */
export function ReplanDialog({ taskIds, initialInstructions = '', onClose }: { taskIds: string[]; initialInstructions?: string; onClose: () => void }) {
  const store = useEditorStore();
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const tasks = useEditor((s) => s.doc.plan.planned_tasks);
  const [instructions, setInstructions] = useState(initialInstructions);
  const [accepted, setAccepted] = useState<Set<string>>(new Set());
  // A proposal changes nothing on the server that a page shows; applying makes a revision.
  const proposer = useServerAction(proposeReplanAction, {
    refresh: 'never',
    onSuccess: (proposal) => setAccepted(new Set(proposal.diff.filter((d) => d.error === null).map((d) => d.replaces))),
  });
  const applier = useServerAction(applyReplanAction, {
    onSuccess: ({ plan, revision, applied }) => {
      const state = store.getState();
      state.applySavedRevision(documentOf(plan), revision);
      state.setNotice({ kind: 'info', message: `Replaced ${applied.length} task${applied.length === 1 ? '' : 's'}: saved as revision ${revision}`, taskIds: [] });
      onClose();
    },
  });
  const proposal = proposer.data;
  const pending = proposer.pending || applier.pending;
  const byId = new Map(tasks.map((t) => [t.task_id, t]));

  function propose() {
    applier.reset();
    const { planId, baseRevision } = store.getState();
    void proposer.run({ id: planId, task_ids: taskIds, instructions, base_revision: baseRevision });
  }

  function apply() {
    // Applying replaces the editor's document with the new revision; unsaved edits would vanish.
    if (!proposal || store.getState().doc !== store.getState().savedDoc) return;
    void applier.run({ id: proposal.plan_id, proposal_id: proposal.proposal_id, accepted_task_ids: [...accepted] });
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
      <PanelField label="Instructions (optional)">
        <textarea
          className={`w-full ${PANEL_INPUT}`}
          rows={initialInstructions ? 6 : 2}
          maxLength={4000}
          placeholder="e.g. Ensure memory efficiency and clarity."
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
        />
      </PanelField>
      <button type="button" className={SMALL_BUTTON} disabled={pending || dirty} onClick={propose}>
        {proposer.pending ? 'Proposing…' : 'Propose replacements'}
      </button>
      <ActionError message={applier.error ?? proposer.error} className="block text-xs text-rose-700" />
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
