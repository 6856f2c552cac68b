'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { BackendId } from '@/lib/planning/planning-types';
import { JsonField } from '@/components/form/json-field';
import { parseJsonObject } from '@/components/form/parse-json';
import { ProgressLog } from './progress-log';
import { streamPlan } from './stream-plan';

export interface BackendOption {
  id: BackendId;
  label: string;
}

const JSON_FIELDS = [
  { key: 'job_goal', label: 'Job goal (JSON)' },
  { key: 'job_objectives', label: 'Objectives (JSON)' },
  { key: 'job_steerability_data', label: 'Steerability data (JSON)' },
] as const;
type JsonKey = (typeof JSON_FIELDS)[number]['key'];

const inputClass = 'mt-1 w-full rounded border border-slate-300 px-2 py-1.5';

/** Stage 1 from a goal: sends the job to the chosen planner and follows its progress. */
export function NewPlanForm({ backends }: { backends: BackendOption[] }) {
  const router = useRouter();
  const todayHintId = useId();
  const plannerHintId = useId();
  const [task, setTask] = useState('');
  const [json, setJson] = useState<Record<JsonKey, string>>({ job_goal: '{}', job_objectives: '{}', job_steerability_data: '{}' });
  const [jsonErrors, setJsonErrors] = useState<Partial<Record<JsonKey, string>>>({});
  const [notes, setNotes] = useState('');
  const [today, setToday] = useState('');
  const [backend, setBackend] = useState<BackendId | ''>(backends[0]?.id ?? '');
  const [progress, setProgress] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = backends.find((option) => option.id === backend);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const parsed: Partial<Record<JsonKey, Record<string, unknown>>> = {};
    const errors: Partial<Record<JsonKey, string>> = {};
    for (const { key, label } of JSON_FIELDS) {
      const result = parseJsonObject(label, json[key]);
      if (result.ok) parsed[key] = result.value;
      else errors[key] = result.error;
    }
    setJsonErrors(errors);
    const invalid = JSON_FIELDS.filter(({ key }) => errors[key]).map(({ label }) => label);
    if (invalid.length > 0) {
      setError(`Fix the JSON in ${invalid.join(', ')} before creating the plan.`);
      return;
    }
    setBusy(true);
    setProgress([]);
    const outcome = await streamPlan(
      { ...parsed, task_description: task, custom_notes: notes, ...(today ? { today } : {}), ...(backend ? { backend } : {}) },
      (message) => setProgress((messages) => [...(messages ?? []), message]),
    );
    if (outcome.ok) {
      setCreated(true);
      router.push(`/plans/${outcome.plan.id}`);
      return;
    }
    setError(outcome.message);
    setBusy(false);
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Task description</span>
          <textarea
            required
            rows={3}
            placeholder="Get contaminated shipments and their contaminant details"
            className={inputClass}
            value={task}
            onChange={(e) => setTask(e.target.value)}
          />
        </label>
        <div className="grid gap-4 sm:grid-cols-3">
          {JSON_FIELDS.map(({ key, label }) => (
            <JsonField
              key={key}
              label={label}
              value={json[key]}
              error={jsonErrors[key]}
              onChange={(value) => {
                setJson((all) => ({ ...all, [key]: value }));
                setJsonErrors((all) => ({ ...all, [key]: undefined }));
              }}
            />
          ))}
        </div>
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Custom notes</span>
          <textarea rows={3} className={inputClass} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="text-sm">
            <label className="block">
              <span className="font-medium text-slate-700">Today</span>
              <input type="date" aria-describedby={todayHintId} className={inputClass} value={today} onChange={(e) => setToday(e.target.value)} />
            </label>
            <p id={todayHintId} className="mt-1 text-slate-500">
              Optional. Dates like &ldquo;last week&rdquo; resolve against it; the server&apos;s today when empty.
            </p>
          </div>
          <div className="text-sm">
            <label className="block">
              <span className="font-medium text-slate-700">Planner</span>
              <select aria-describedby={plannerHintId} className={inputClass} value={backend} onChange={(e) => setBackend(e.target.value as BackendId | '')}>
                {backends.length === 0 && <option value="">Server default</option>}
                {backends.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <p id={plannerHintId} className="mt-1 text-slate-500">
              {chosen ? chosen.label : 'The planner this server is configured to use.'}
            </p>
          </div>
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="rounded border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
        {busy ? 'Planning…' : 'Create plan'}
      </button>
      {created && (
        <p role="status" className="text-sm font-medium text-emerald-700">
          Plan created
        </p>
      )}
      {progress && <ProgressLog messages={progress} />}
    </form>
  );
}
