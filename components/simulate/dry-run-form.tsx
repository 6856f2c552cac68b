'use client';

import { useState } from 'react';
import { EXECUTION_TYPES } from '@/lib/plan';
import { SubmitButton } from '@/components/form/submit-button';

export interface DryRunFormValues {
  workers: number;
  limits: Partial<Record<string, number>>;
  fail_task_ids: string[];
  failure_probability: number;
  runs: number;
  seed: number;
}

const INPUT = 'mt-1 block w-full rounded border border-slate-300 px-2 py-1 text-sm';

/** The dry run's settings: workers, per-type limits, tasks forced to fail, and Monte Carlo failures. */
export function DryRunForm({ tasks, pending, onRun }: { tasks: Array<{ id: string; label: string }>; pending: boolean; onRun: (values: DryRunFormValues) => void }) {
  const [workers, setWorkers] = useState(4);
  const [limits, setLimits] = useState<Record<string, string>>({});
  const [failIds, setFailIds] = useState<string[]>([]);
  const [probability, setProbability] = useState(0);
  const [runs, setRuns] = useState(1);
  const [seed, setSeed] = useState(1);
  return (
    <form
      method="post"
      aria-label="Dry-run settings"
      className="grid gap-3 text-sm sm:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault();
        const parsedLimits = Object.fromEntries(Object.entries(limits).filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, Number(v)]));
        onRun({ workers, limits: parsedLimits, fail_task_ids: failIds, failure_probability: probability, runs, seed });
      }}
    >
      <label>
        Workers
        <input type="number" min={1} max={10000} required value={workers} onChange={(e) => setWorkers(Number(e.target.value))} className={INPUT} />
      </label>
      <label>
        Failure probability per task
        <input type="number" min={0} max={1} step={0.01} value={probability} onChange={(e) => setProbability(Number(e.target.value))} className={INPUT} />
      </label>
      <label>
        Monte Carlo runs
        <input type="number" min={1} max={10000} value={runs} onChange={(e) => setRuns(Number(e.target.value))} className={INPUT} />
      </label>
      <fieldset className="sm:col-span-2">
        <legend className="text-sm">At most at once (empty: no limit)</legend>
        <div className="mt-1 grid grid-cols-4 gap-2">
          {EXECUTION_TYPES.map((type) => (
            <label key={type} className="text-xs">
              {type} limit
              <input type="number" min={1} value={limits[type] ?? ''} onChange={(e) => setLimits({ ...limits, [type]: e.target.value })} className={INPUT} />
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Seed
        <input type="number" value={seed} onChange={(e) => setSeed(Number(e.target.value))} className={INPUT} />
      </label>
      <label className="sm:col-span-2">
        Tasks that fail
        <select multiple size={Math.min(6, Math.max(2, tasks.length))} value={failIds} onChange={(e) => setFailIds([...e.target.selectedOptions].map((o) => o.value))} className={INPUT}>
          {tasks.map((task) => (
            <option key={task.id} value={task.id}>
              {task.label}
            </option>
          ))}
        </select>
      </label>
      <div className="flex items-end">
        <SubmitButton pending={pending} pendingLabel="Running…">
          Run dry run
        </SubmitButton>
      </div>
    </form>
  );
}
