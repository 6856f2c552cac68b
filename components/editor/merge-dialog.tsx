'use client';

import { FieldComparisonHead } from '@/components/plan/field-comparison-head';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { ModalDialog } from '@/components/form/modal-dialog';
import { SECONDARY_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import { mergePlans, type FieldConflict, type MergeConflict, type MergeSide } from '@/lib/plan/merge';
import { useEditor, useEditorStore } from './editor-context';
import { planRevisionQuery } from './plan-revision-query';

function conflictTitle(conflict: MergeConflict): string {
  if (conflict.taskId !== null) return `Task ${conflict.taskId}`;
  if (conflict.cycle) return `Dependency cycle: ${[...conflict.cycle, conflict.cycle[0]].join(' → ')}`;
  const [kind, id] = conflict.key.split(/:(.*)/s);
  if (kind === 'subgraph') return `Subgraph ${id}`;
  if (kind === 'grouping') return `The group of task ${id}`;
  return conflict.key === 'job' ? 'The job' : 'Plan fields';
}

function shown(value: unknown, field: string): string {
  if (value === null && field === 'task') return '(deleted)';
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

function FieldRows({ field }: { field: FieldConflict }) {
  return (
    <tr className="align-top">
      <th scope="row" className="py-1 pr-2 text-left font-mono text-xs font-medium text-slate-700">
        {field.field}
      </th>
      <td className="py-1 pr-2">
        <pre className="font-mono text-xs break-all whitespace-pre-wrap text-slate-900">{shown(field.mine, field.field)}</pre>
      </td>
      <td className="py-1">
        <pre className="font-mono text-xs break-all whitespace-pre-wrap text-slate-900">{shown(field.theirs, field.field)}</pre>
      </td>
    </tr>
  );
}

/**
 * Puts the unsaved edits on top of a newer revision saved elsewhere: at once when they do
 * not overlap, else after a choice per conflicting task, shown side by side.
 */
export function MergeDialog({ revision, author, onClose }: { revision: number; author?: string; onClose: () => void }) {
  const store = useEditorStore();
  const planId = useEditor((s) => s.planId);
  const base = useEditor((s) => s.savedDoc);
  const mine = useEditor((s) => s.doc);
  const baseRevision = useEditor((s) => s.baseRevision);
  const theirs = useQuery(planRevisionQuery(planId, revision));
  const [choices, setChoices] = useState<Record<string, MergeSide>>({});
  const heading = useRef<HTMLHeadingElement>(null);

  // What conflicts at first, plus any a choice brings up (settling one cycle can leave another).
  const conflicts = useMemo(() => {
    if (!theirs.data) return [];
    const first = mergePlans(base, mine, theirs.data).conflicts;
    const later = mergePlans(base, mine, theirs.data, choices).conflicts.filter((c) => !first.some((f) => f.key === c.key));
    return [...first, ...later];
  }, [base, mine, theirs.data, choices]);
  const unresolved = conflicts.filter((c) => !choices[c.key]).length;

  function apply() {
    if (!theirs.data) return;
    const { doc, conflicts: left } = mergePlans(base, mine, theirs.data, choices);
    if (left.length) return;
    store.getState().rebase(theirs.data, revision, doc);
    onClose();
  }

  function discard() {
    if (!theirs.data) return;
    store.getState().loadRevision(theirs.data, revision);
    onClose();
  }

  const who = author ? `${author} saved revision ${revision}` : `Revision ${revision} was saved`;
  return (
    <ModalDialog labelledBy="merge-title" initialFocus={heading} onCancel={onClose}>
      <div className="max-h-[85vh] w-[44rem] overflow-y-auto rounded-lg bg-white p-5 shadow-xl">
        <h2 id="merge-title" ref={heading} tabIndex={-1} className="text-base font-semibold focus:outline-none">
          This plan was saved elsewhere
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          {who} while you were editing revision {baseRevision}. Nothing was overwritten.
        </p>
        {theirs.isPending && <p className="mt-3 text-sm text-slate-600">Comparing your changes with revision {revision}…</p>}
        {theirs.error && (
          <p role="alert" className="mt-3 text-sm text-rose-700">
            Could not load revision {revision}: {theirs.error.message}
          </p>
        )}
        {theirs.data && conflicts.length === 0 && (
          <p className="mt-3 text-sm text-slate-800">Your changes do not overlap with theirs: they can go on top of revision {revision}, unsaved, for you to review and save.</p>
        )}
        {theirs.data && conflicts.length > 0 && (
          <div className="mt-3 space-y-3">
            <p className="text-sm text-slate-800">
              You both changed {conflicts.length === 1 ? 'one part' : `${conflicts.length} parts`} of the plan. Choose whose version to keep for each; everything else is merged.
            </p>
            {conflicts.map((conflict) => (
              <fieldset key={conflict.key} className="rounded border border-slate-200 p-3">
                <legend className="px-1 text-sm font-semibold">{conflictTitle(conflict)}</legend>
                {conflict.cycle && (
                  <p className="mb-1 text-sm text-slate-700">Each side alone is fine, but together these dependencies go round in a circle. Keep one side&apos;s dependencies for these tasks.</p>
                )}
                <table className="w-full table-fixed text-sm">
                  <FieldComparisonHead first="Mine" second={`Theirs (r${revision})`} className="text-left text-xs text-slate-600" fieldWidth="w-32" />
                  <tbody>
                    {conflict.fields.map((field) => (
                      <FieldRows key={field.field} field={field} />
                    ))}
                  </tbody>
                </table>
                <div className="mt-2 flex gap-4 text-sm">
                  {(['mine', 'theirs'] as const).map((side) => (
                    <label key={side} className="flex items-center gap-1.5">
                      <input
                        type="radio"
                        name={`merge-${conflict.key}`}
                        checked={choices[conflict.key] === side}
                        onChange={() => setChoices((c) => ({ ...c, [conflict.key]: side }))}
                      />
                      {side === 'mine' ? 'Keep mine' : 'Take theirs'}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
        )}
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <button type="button" className={SECONDARY_BUTTON} onClick={onClose}>
            Keep editing
          </button>
          <button type="button" className={SECONDARY_BUTTON} disabled={!theirs.data} onClick={discard}>
            Discard mine and load r{revision}
          </button>
          <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={!theirs.data || unresolved > 0} onClick={apply}>
            Apply my changes on top of r{revision}
          </button>
        </div>
        {unresolved > 0 && <p className="mt-2 text-right text-xs text-slate-600">Choose a side for {unresolved === 1 ? 'the conflict' : `all ${unresolved} conflicts`} to apply.</p>}
      </div>
    </ModalDialog>
  );
}
