'use client';

import { useRef, useState } from 'react';
import { EXECUTION_TYPES } from '@/lib/plan';
import { SubmitButton } from '@/components/form/submit-button';
import type { DryRunSettings } from './dry-run-settings';
import { TaskPicker, type PickableTask } from './task-picker';
import { typedButNotPicked } from './task-picker-search';

const INPUT = 'mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm';

/** A probability as the form and its hint say it: up to four decimals, as a percentage too. */
function chance(p: number): string {
  const pct = p * 100;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toPrecision(2)}%`;
}

export interface DryRunFormProps {
  tasks: readonly PickableTask[];
  settings: DryRunSettings;
  onChange: (settings: DryRunSettings) => void;
  pending: boolean;
  onRun: (settings: DryRunSettings) => void;
}

/** The dry run's settings: workers, per-type limits, tasks forced to fail, and Monte Carlo failures. Controlled: the page keeps them in its address. */
export function DryRunForm({ tasks, settings, onChange, pending, onRun }: DryRunFormProps) {
  const set = <K extends keyof DryRunSettings>(key: K, value: DryRunSettings[K]) => onChange({ ...settings, [key]: value });
  const p = settings.failure_probability;
  const overrides = Object.entries(settings.failure_probability_overrides);
  // What is typed into each picker, and the picker whose text was left unpicked when Run was pressed.
  const [typed, setTyped] = useState({ fail: '', override: '' });
  const [unpicked, setUnpicked] = useState<'fail' | 'override' | null>(null);
  const failInput = useRef<HTMLInputElement>(null);
  const overrideInput = useRef<HTMLInputElement>(null);
  const type = (picker: 'fail' | 'override', query: string) => {
    setTyped((before) => ({ ...before, [picker]: query }));
    if (unpicked === picker) setUnpicked(null);
  };
  const pick = (picker: 'fail' | 'override', apply: () => void) => {
    if (unpicked === picker) setUnpicked(null);
    apply();
  };
  const unpickedError = (picker: 'fail' | 'override') =>
    unpicked === picker ? `No task picked: “${typed[picker].trim()}” is typed here but no task was picked for it, so the dry run was not started. Pick a task from the list (↓ and Enter), or clear the text.` : null;
  const labels = new Map(tasks.map((t) => [t.id, t.label]));
  // Every task failing independently with p: how often a whole run gets through.
  const completes = p > 0 ? Math.exp(tasks.length * Math.log1p(-Math.min(p, 1 - 1e-12))) : 1;
  return (
    <form
      method="post"
      aria-label="Dry-run settings"
      className="grid gap-3 text-sm sm:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault();
        // A run without the failure the operator meant to force would answer another question.
        if (typedButNotPicked(tasks, typed.fail, settings.fail_task_ids)) {
          setUnpicked('fail');
          return failInput.current?.focus();
        }
        if (typedButNotPicked(tasks, typed.override, overrides.map(([id]) => id))) {
          setUnpicked('override');
          return overrideInput.current?.focus();
        }
        setUnpicked(null);
        onRun(settings);
      }}
    >
      <label>
        Workers
        <input type="number" min={1} max={10000} required value={settings.workers} onChange={(e) => set('workers', Number(e.target.value))} className={INPUT} />
      </label>
      <label>
        Failure probability per task
        <input
          type="number"
          min={0}
          max={1}
          step={0.0001}
          value={p}
          aria-describedby="failure-probability-hint"
          onChange={(e) => set('failure_probability', Number(e.target.value))}
          className={INPUT}
        />
        <span id="failure-probability-hint" className="mt-0.5 block text-xs text-slate-500">
          {p > 0 ? `At ${chance(p)} per task, about ${chance(completes)} of runs of all ${tasks.length.toLocaleString('en')} tasks complete.` : 'Steps of 0.0001; 0 means no random failures.'}
        </span>
      </label>
      <label>
        Monte Carlo runs
        <input type="number" min={1} max={10000} value={settings.runs} onChange={(e) => set('runs', Number(e.target.value))} className={INPUT} />
      </label>
      <fieldset className="sm:col-span-2">
        <legend className="text-sm">At most at once (empty: no limit)</legend>
        <div className="mt-1 grid grid-cols-4 gap-2">
          {EXECUTION_TYPES.map((type) => (
            <label key={type} className="text-xs">
              {type} limit
              <input
                type="number"
                min={1}
                value={settings.limits[type] ?? ''}
                onChange={(e) => {
                  const limits = { ...settings.limits };
                  if (e.target.value.trim() === '') delete limits[type];
                  else limits[type] = Number(e.target.value);
                  set('limits', limits);
                }}
                className={INPUT}
              />
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Seed
        <input type="number" value={settings.seed} onChange={(e) => set('seed', Number(e.target.value))} className={INPUT} />
      </label>
      <div className="sm:col-span-2">
        <TaskPicker
          ref={failInput}
          label="Tasks that fail"
          hint="Forced to fail in the schedule; what depends on them is skipped."
          tasks={tasks}
          selected={settings.fail_task_ids}
          onChange={(ids) => pick('fail', () => set('fail_task_ids', ids))}
          query={typed.fail}
          onQueryChange={(query) => type('fail', query)}
          error={unpickedError('fail')}
        />
      </div>
      <div className="sm:col-span-3">
          <TaskPicker
            ref={overrideInput}
            label="Tasks with their own failure probability"
            hint="Each task picked here fails with the probability set for it below, instead of the one per task."
            tasks={tasks}
            selected={overrides.map(([id]) => id)}
            onChange={(ids) =>
              pick('override', () =>
                set('failure_probability_overrides', Object.fromEntries(ids.map((id) => [id, settings.failure_probability_overrides[id] ?? (p > 0 ? p : 0.5)]))),
              )
            }
            query={typed.override}
            onQueryChange={(query) => type('override', query)}
            error={unpickedError('override')}
          />
          {overrides.length > 0 && (
            <ul aria-label="Failure probability overrides" className="mt-2 grid gap-2 sm:grid-cols-3">
              {overrides.map(([id, value]) => (
                <li key={id}>
                  <label className="text-xs">
                    <span className="block truncate" title={id}>
                      Failure probability of {labels.get(id) ?? id}
                    </span>
                    <input
                      type="number"
                      min={0}
                      max={1}
                      step={0.0001}
                      value={value}
                      onChange={(e) => set('failure_probability_overrides', { ...settings.failure_probability_overrides, [id]: Number(e.target.value) })}
                      className={INPUT}
                    />
                  </label>
                </li>
              ))}
            </ul>
          )}
      </div>
      <div className="flex items-end">
        <SubmitButton pending={pending} pendingLabel="Running…">
          Run dry run
        </SubmitButton>
      </div>
    </form>
  );
}
