'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { BackendId } from '@/lib/planning/planning-types';
import type { ActionResult } from '@/lib/api/action-result';
import { ActionError } from '@/components/form/action-error';
import { fieldErrors } from '@/components/form/field-errors';
import { JsonField } from '@/components/form/json-field';
import { parseJsonObject } from '@/components/form/parse-json';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';
import { ProgressLog } from './progress-log';
import { streamPlan, type GenerateBody, type PlanCreated, type PlanOutcome } from './stream-plan';

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
const JSON_KEYS = JSON_FIELDS.map(({ key }) => key);

const inputClass = 'mt-1 w-full rounded border border-slate-300 px-2 py-1.5';

// The planner streams its progress from a route, not a server action; its outcome is read
// as an action's result so the form runs it like any other.
const asResult = (outcome: PlanOutcome): ActionResult<PlanCreated> =>
  outcome.ok ? { ok: true, data: outcome.plan } : { ok: false, error: { code: 'planning_failed', message: outcome.message } };

/** Stage 1 from a goal: sends the job to the chosen planner and follows its progress. */
export function NewPlanForm({ backends }: { backends: BackendOption[] }) {
  const router = useRouter();
  const todayHintId = useId();
  const plannerHintId = useId();
  const [task, setTask] = useState('');
  const [json, setJson] = useState<Record<JsonKey, string>>({ job_goal: '{}', job_objectives: '{}', job_steerability_data: '{}' });
  const [notes, setNotes] = useState('');
  const [today, setToday] = useState('');
  const [backend, setBackend] = useState<BackendId | ''>(backends[0]?.id ?? '');
  const [progress, setProgress] = useState<string[] | null>(null);
  const create = useServerAction(
    (body: GenerateBody) => streamPlan(body, (message) => setProgress((messages) => [...(messages ?? []), message])).then(asResult),
    { refresh: 'never', onSuccess: (plan) => router.push(`/plans/${plan.id}`) },
  );
  // Once created, the form stays shut while the plan's page loads.
  const busy = create.pending || create.data !== undefined;
  const jsonErrors = fieldErrors(create.failure, JSON_KEYS).byField;
  const chosen = backends.find((option) => option.id === backend);

  function submit() {
    const parsed: Partial<Record<JsonKey, Record<string, unknown>>> = {};
    const details: Array<{ path: JsonKey; message: string }> = [];
    for (const { key, label } of JSON_FIELDS) {
      const result = parseJsonObject(label, json[key]);
      if (result.ok) parsed[key] = result.value;
      else details.push({ path: key, message: result.error });
    }
    if (details.length > 0) {
      const invalid = JSON_FIELDS.filter(({ key }) => details.some((detail) => detail.path === key)).map(({ label }) => label);
      return create.fail(`Fix the JSON in ${invalid.join(', ')} before creating the plan.`, details);
    }
    setProgress([]);
    void create.run({ ...parsed, task_description: task, custom_notes: notes, ...(today ? { today } : {}), ...(backend ? { backend } : {}) });
  }

  /** A field's error goes once its text is edited; the others and the form's alert stay until the next try. */
  function editJson(key: JsonKey, value: string) {
    setJson((all) => ({ ...all, [key]: value }));
    const { failure } = create;
    if (failure?.details && jsonErrors[key]) create.fail(failure.message, failure.details.filter((detail) => detail.path !== key));
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="space-y-4"
    >
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
              onChange={(value) => editJson(key, value)}
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
      <ActionError message={create.error} className="block rounded border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900" />
      <SubmitButton
        pending={busy}
        pendingLabel="Planning…"
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
      >
        Create plan
      </SubmitButton>
      {create.data && (
        <p role="status" className="text-sm font-medium text-emerald-700">
          Plan created
        </p>
      )}
      {progress && <ProgressLog messages={progress} />}
    </form>
  );
}
