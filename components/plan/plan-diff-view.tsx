import { isEmptyDiff, type PlanDiff, type PlannerTask, type SubGraph } from '@/lib/plan';
import { diffAnchor } from '@/components/review/review-legend';
import { ViewedCheckbox, ViewedFold } from '@/components/review/task-views';
import { FieldChanges, TaskFields } from './task-fields';

// A diff a reviewer can decide on: every added, replaced and changed task field by field,
// removed tasks with what they held, dependencies, and subgraphs by group and member.
// On the review page each entry of a task in the revision has a "Viewed" box, and folds
// once it is ticked; each entry has an anchor the canvas legend links to.

/** Beyond this many entries in one list the rest are counted, so a huge plan still renders. */
const SHOWN = 500;

/** Says how many of `total` entries were left out when only `shown` of them are listed. */
function More({ total, shown = Math.min(total, SHOWN) }: { total: number; shown?: number }) {
  return total > shown ? <p className="text-xs text-slate-600">…and {total - shown} more, in the plan&apos;s export.</p> : null;
}

function TaskHeading({ task, viewable = false }: { task: PlannerTask; viewable?: boolean }) {
  return (
    <div className="flex items-start justify-between gap-2">
      <p>
        <span className="font-mono text-xs font-semibold">{task.task_id}</span> {task.description}
      </p>
      {viewable && <ViewedCheckbox taskId={task.task_id} />}
    </div>
  );
}

/**
 * `viewable`: the tasks are in the revision under review, so they can be marked viewed.
 * `total`: how many there are when `tasks` holds only the first of them.
 */
function TaskEntries({
  title,
  tone,
  tasks,
  total = tasks.length,
  label,
  viewable,
}: {
  title: string;
  tone: string;
  tasks: PlannerTask[];
  total?: number;
  label: (id: string) => string;
  viewable: boolean;
}) {
  if (!tasks.length) return null;
  return (
    <section aria-label={title}>
      <h3 className={`font-semibold ${tone}`}>
        {title} ({total})
      </h3>
      <ul className="mt-1 space-y-2">
        {tasks.slice(0, SHOWN).map((t) => (
          <li key={t.task_id} id={diffAnchor(t.task_id)} className="scroll-mt-4 rounded border border-slate-200 p-2">
            <div role="group" aria-label={label(t.task_id)}>
              <TaskHeading task={t} viewable={viewable} />
              {viewable ? (
                <ViewedFold taskId={t.task_id}>
                  <TaskFields task={t} />
                </ViewedFold>
              ) : (
                <TaskFields task={t} />
              )}
            </div>
          </li>
        ))}
      </ul>
      <More total={total} shown={Math.min(tasks.length, SHOWN)} />
    </section>
  );
}

const ids = (list: readonly string[]) => (list.length ? list.join(', ') : 'none');

function SubgraphChanges({ diff }: { diff: PlanDiff }) {
  const s = diff.subgraphs;
  if (!diff.subgraphsChanged) return null;
  const listed = s.added.length + s.removed.length + s.changed.length + s.moved.length > 0;
  const group = (g: SubGraph, sign: string) => (
    <li key={`${sign}${g.subgraph_id}`}>
      {sign} <span className="font-mono">{g.subgraph_id}</span>: tasks {ids(g.task_ids)}; waits on {ids(g.depends_on)}
    </li>
  );
  return (
    <section aria-label="Subgraphs changed">
      <h3 className="font-semibold">Subgraphs</h3>
      {!listed && <p className="text-xs text-slate-700">The same groups with the same members, in a different order.</p>}
      <ul className="mt-1 space-y-0.5 text-xs">
        {s.added.map((g) => group(g, 'Added group'))}
        {s.removed.map((g) => group(g, 'Removed group'))}
        {s.changed.map((c) => (
          <li key={`~${c.subgraph_id}`}>
            Group <span className="font-mono">{c.subgraph_id}</span>:
            {c.tasksAdded.length > 0 && <> gained {c.tasksAdded.join(', ')};</>}
            {c.tasksRemoved.length > 0 && <> lost {c.tasksRemoved.join(', ')};</>}
            {c.dependsOnAdded.length > 0 && <> now waits on {c.dependsOnAdded.join(', ')};</>}
            {c.dependsOnRemoved.length > 0 && <> no longer waits on {c.dependsOnRemoved.join(', ')};</>}
          </li>
        ))}
        {s.moved.map((m) => (
          <li key={`>${m.task_id}`}>
            Task <span className="font-mono">{m.task_id}</span> moved from group <span className="font-mono">{m.from}</span> to{' '}
            <span className="font-mono">{m.to}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PlanDiffView({ diff }: { diff: PlanDiff }) {
  if (isEmptyDiff(diff)) return <p className="text-sm text-slate-600">No change to tasks, dependencies, job or subgraphs (layout only).</p>;
  const replacing = new Set(diff.replacements.flatMap((r) => r.tasks.map((t) => t.task.task_id)));
  const replaced = new Set(diff.replacements.map((r) => r.replaces.task_id));
  const added = diff.added.filter((t) => !replacing.has(t.task_id));
  const removed = diff.removed.filter((t) => !replaced.has(t.task_id));
  return (
    <div className="space-y-4 text-sm">
      {diff.replacements.length > 0 && (
        <section aria-label="Tasks replaced">
          <h3 className="font-semibold text-violet-800">Tasks replaced ({diff.replacements.length})</h3>
          <ul className="mt-1 space-y-2">
            {diff.replacements.slice(0, SHOWN).map((r) => (
              <li key={r.replaces.task_id} id={diffAnchor(r.replaces.task_id)} className="scroll-mt-4 rounded border border-slate-200 p-2">
                <p>
                  <span className="font-mono text-xs font-semibold">{r.replaces.task_id}</span> {r.replaces.description} was replaced by{' '}
                  {r.tasks.length === 1 ? 'one task' : `${r.tasks.length} tasks`}:
                </p>
                <ul className="mt-1 space-y-2">
                  {r.tasks.map(({ task, fields }) => (
                    <li key={task.task_id} className="ml-2 border-l-2 border-violet-300 pl-2">
                      <div role="group" aria-label={`${task.task_id} replaces ${r.replaces.task_id}`}>
                        <TaskHeading task={task} viewable />
                        <ViewedFold taskId={task.task_id}>
                          <FieldChanges fields={fields} />
                        </ViewedFold>
                      </div>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <More total={diff.replacements.length} />
        </section>
      )}
      {diff.changed.length > 0 && (
        <section aria-label="Tasks changed">
          <h3 className="font-semibold text-amber-800">Tasks changed ({diff.changed.length})</h3>
          <ul className="mt-1 space-y-2">
            {diff.changed.slice(0, SHOWN).map((c) => (
              <li key={c.task_id} id={diffAnchor(c.task_id)} className="scroll-mt-4 rounded border border-slate-200 p-2">
                <div role="group" aria-label={`Task ${c.task_id} changed`}>
                  <div className="flex items-start justify-between gap-2">
                    <span className="font-mono text-xs font-semibold">{c.task_id}</span>
                    <ViewedCheckbox taskId={c.task_id} />
                  </div>
                  <ViewedFold taskId={c.task_id}>
                    <FieldChanges fields={c.fields} />
                  </ViewedFold>
                </div>
              </li>
            ))}
          </ul>
          <More total={diff.changed.length} />
        </section>
      )}
      <TaskEntries title="Tasks added" tone="text-emerald-800" tasks={added} label={(id) => `Task ${id} added`} viewable />
      <TaskEntries title="Tasks removed" tone="text-rose-800" tasks={removed} label={(id) => `Task ${id} removed`} viewable={false} />
      {(diff.dependenciesAdded.length > 0 || diff.dependenciesRemoved.length > 0) && (
        <section aria-label="Dependencies changed">
          <h3 className="font-semibold">Dependencies</h3>
          <ul className="mt-1 font-mono text-xs">
            {diff.dependenciesAdded.slice(0, SHOWN).map((e) => (
              <li key={`+${e.from}>${e.to}`} className="text-emerald-800">
                + {e.from} → {e.to}
              </li>
            ))}
            {diff.dependenciesRemoved.slice(0, SHOWN).map((e) => (
              <li key={`-${e.from}>${e.to}`} className="text-rose-800">
                − {e.from} → {e.to}
              </li>
            ))}
          </ul>
        </section>
      )}
      <SubgraphChanges diff={diff} />
      {diff.jobChanged && <p className="text-amber-800">The job (goal, objectives, steerability) changed.</p>}
      {diff.planFieldsChanged.length > 0 && <p className="text-amber-800">Plan fields changed: {diff.planFieldsChanged.join(', ')}.</p>}
    </div>
  );
}

/**
 * A first revision has nothing to compare with: every task with its fields, and its groups.
 * `tasks` may be the revision's first tasks only; `total` counts them all.
 */
export function FirstRevisionView({ tasks, total, subgraphs }: { tasks: PlannerTask[]; total?: number; subgraphs: SubGraph[] }) {
  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-600">This is the plan&apos;s first revision, so every task is new. Each is listed with its fields (empty fields left out).</p>
      <TaskEntries title="Tasks" tone="text-slate-900" tasks={tasks} total={total} label={(id) => `Task ${id}`} viewable />
      {subgraphs.length > 0 && (
        <section aria-label="Subgraphs">
          <h3 className="font-semibold">Subgraphs ({subgraphs.length})</h3>
          <ul className="mt-1 space-y-0.5 text-xs">
            {subgraphs.map((g) => (
              <li key={g.subgraph_id}>
                <span className="font-mono">{g.subgraph_id}</span>: tasks {ids(g.task_ids)}; waits on {ids(g.depends_on)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
