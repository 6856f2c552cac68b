import { isEmptyDiff, type PlanDiff } from '@/lib/plan';

const show = (value: unknown) => (typeof value === 'string' ? value || '""' : JSON.stringify(value));

function TaskList({ title, tone, tasks }: { title: string; tone: string; tasks: PlanDiff['added'] }) {
  if (!tasks.length) return null;
  return (
    <section aria-label={title}>
      <h3 className={`font-semibold ${tone}`}>
        {title} ({tasks.length})
      </h3>
      <ul className="mt-1 list-inside list-disc text-slate-700">
        {tasks.map((t) => (
          <li key={t.task_id}>
            <span className="font-mono text-xs">{t.task_id}</span> {t.description}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PlanDiffView({ diff }: { diff: PlanDiff }) {
  if (isEmptyDiff(diff)) return <p className="text-sm text-slate-600">No change to tasks, dependencies, job or subgraphs (layout only).</p>;
  return (
    <div className="space-y-4 text-sm">
      <TaskList title="Tasks added" tone="text-emerald-800" tasks={diff.added} />
      <TaskList title="Tasks removed" tone="text-rose-800" tasks={diff.removed} />
      {diff.changed.length > 0 && (
        <section aria-label="Tasks changed">
          <h3 className="font-semibold text-amber-800">Tasks changed ({diff.changed.length})</h3>
          <ul className="mt-1 space-y-2">
            {diff.changed.map((c) => (
              <li key={c.task_id}>
                <span className="font-mono text-xs">{c.task_id}</span>
                <dl className="ml-4 grid grid-cols-[max-content_1fr] gap-x-3 text-xs">
                  {c.fields.map((f) => (
                    <div key={f.field} className="contents">
                      <dt className="text-slate-500">{f.field}</dt>
                      <dd>
                        <del className="bg-rose-50 text-rose-800">{show(f.before)}</del> → <ins className="bg-emerald-50 text-emerald-800 no-underline">{show(f.after)}</ins>
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(diff.dependenciesAdded.length > 0 || diff.dependenciesRemoved.length > 0) && (
        <section aria-label="Dependencies changed">
          <h3 className="font-semibold">Dependencies</h3>
          <ul className="mt-1 font-mono text-xs">
            {diff.dependenciesAdded.map((e) => (
              <li key={`+${e.from}>${e.to}`} className="text-emerald-800">
                + {e.from} → {e.to}
              </li>
            ))}
            {diff.dependenciesRemoved.map((e) => (
              <li key={`-${e.from}>${e.to}`} className="text-rose-800">
                − {e.from} → {e.to}
              </li>
            ))}
          </ul>
        </section>
      )}
      {diff.jobChanged && <p className="text-amber-800">The job (goal, objectives, steerability) changed.</p>}
      {diff.subgraphsChanged && <p className="text-amber-800">The subgraphs changed.</p>}
      {diff.planFieldsChanged.length > 0 && <p className="text-amber-800">Plan fields changed: {diff.planFieldsChanged.join(', ')}.</p>}
    </div>
  );
}
