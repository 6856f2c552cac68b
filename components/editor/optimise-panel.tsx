'use client';

import { useState } from 'react';
import { proposeGroupingAction } from '@/app/plans/[id]/optimize-actions';
import { ActionError } from '@/components/form/action-error';
import { PanelField } from '@/components/form/panel-field';
import { PANEL_INPUT, SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { useServerAction } from '@/components/query/use-server-action';
import { useEditorStore } from './editor-context';
import { SidePanel } from './side-panel';

const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

/**
 * Seed 000's optimisation step: propose a grouping of the plan as the editor holds it
 * (rule-based, or by an LLM whose proposal is checked against the invariants), read the
 * report, and apply it as one undoable edit.
 */
export function OptimisePanel({ onClose }: { onClose: () => void }) {
  const store = useEditorStore();
  const [strategy, setStrategy] = useState<'rule' | 'llm'>('rule');
  const [workers, setWorkers] = useState('4');
  // A proposal is computed from the editor's document and changes nothing on the server.
  const proposer = useServerAction(proposeGroupingAction, { refresh: 'never' });
  const proposal = proposer.data;
  const p = Number(workers);
  const workersOk = Number.isInteger(p) && p >= 1 && p <= 10_000;

  function apply() {
    if (!proposal) return;
    const { report } = proposal;
    const applied = store
      .getState()
      .applyGrouping(proposal.subgraphs, `Grouped into ${report.subgraphs} subgraphs (${report.dispatches_saved} dispatches saved); save to keep it`);
    if (applied) onClose();
  }

  return (
    <SidePanel title="Optimise into SubGraphs" width="w-96" onClose={onClose}>
      <fieldset className="space-y-1">
        <legend className="text-xs font-medium text-slate-600">Optimiser</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="strategy" checked={strategy === 'rule'} onChange={() => setStrategy('rule')} />
          Rule-based: merges chains, never lengthens the dry run
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="strategy" checked={strategy === 'llm'} onChange={() => setStrategy('llm')} />
          LLM: groups by meaning, checked against the invariants
        </label>
      </fieldset>
      <PanelField label="Workers (P)" inline>
        <input
          type="number"
          min={1}
          max={10_000}
          className={`w-24 ${PANEL_INPUT}`}
          value={workers}
          onChange={(e) => setWorkers(e.target.value)}
          aria-invalid={!workersOk}
        />
      </PanelField>
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={proposer.pending || !workersOk}
        onClick={() => void proposer.run({ tasks: store.getState().doc.plan.planned_tasks, strategy, workers: p })}
      >
        {proposer.pending ? 'Proposing…' : 'Propose grouping'}
      </button>
      <ActionError message={proposer.error} className="block text-xs text-rose-700" />
      {proposal && (
        <div className="space-y-2" aria-label="Proposed grouping">
          {proposal.llm && !proposal.llm.accepted && (
            <p role="alert" className="rounded bg-amber-50 p-2 text-xs text-amber-900">
              The model&apos;s grouping was rejected: {proposal.llm.reason}. The rule-based grouping is offered instead.
            </p>
          )}
          <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
            <dt className="text-slate-600">Subgraphs</dt>
            <dd>{proposal.report.subgraphs}</dd>
            <dt className="text-slate-600">Dispatches saved</dt>
            <dd>{proposal.report.dispatches_saved}</dd>
            <dt className="text-slate-600">Dry run at P = {proposal.report.workers}</dt>
            <dd>
              {ms(proposal.report.makespan_before_ms)} → {ms(proposal.report.makespan_after_ms)}
            </dd>
            <dt className="text-slate-600">Critical path</dt>
            <dd>{ms(proposal.report.critical_path_ms)}</dd>
          </dl>
          <ul className="list-disc space-y-0.5 pl-4 text-xs text-slate-700">
            {proposal.report.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <button type="button" className={SMALL_PRIMARY_BUTTON} onClick={apply}>
            Apply grouping
          </button>
        </div>
      )}
    </SidePanel>
  );
}
