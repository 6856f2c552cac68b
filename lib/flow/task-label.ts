import type { PlannerTask } from '@/lib/plan';

const MAX = 48;

type Labelled = Pick<PlannerTask, 'task_id' | 'description'>;

/** A short human name for a task: its description's first words, else its id. */
export function taskLabel(task: Labelled | undefined, fallbackId = ''): string {
  const text = task?.description?.trim();
  if (!text) return task?.task_id ?? fallbackId;
  const firstLine = text.split('\n', 1)[0];
  return firstLine.length > MAX ? `${firstLine.slice(0, MAX - 1).trimEnd()}…` : firstLine;
}

/**
 * Every task's label, made distinct across the plan: a label two or more tasks share gets the
 * task's id beside it ("Fetch paper (t3)"), so nodes, lists and screen-reader names tell them
 * apart. Task ids are unique in a plan, so ids alone would do; the label stays first because
 * that is what an operator reads. A numbered suffix settles the contrived cases where a
 * label-with-id equals another task's label, so the result is distinct for any input.
 */
export function distinctTaskLabels(tasks: readonly Labelled[]): Map<string, string> {
  const bases = tasks.map((t) => taskLabel(t));
  const uses = new Map<string, number>();
  for (const base of bases) uses.set(base, (uses.get(base) ?? 0) + 1);

  const wanted = tasks.map((t, i) => ((uses.get(bases[i]) ?? 0) > 1 ? `${bases[i]} (${t.task_id})` : bases[i]));
  // Claim the plain labels first, so a unique label never changes because of another task.
  const taken = new Set<string>();
  const labels = new Map<string, string>();
  const unclaimed: number[] = [];
  tasks.forEach((t, i) => {
    if (labels.has(t.task_id)) return;
    if (wanted[i] === bases[i] && !taken.has(wanted[i])) {
      taken.add(wanted[i]);
      labels.set(t.task_id, wanted[i]);
    } else unclaimed.push(i);
  });
  for (const i of unclaimed) {
    const id = tasks[i].task_id;
    if (labels.has(id)) continue;
    let label = wanted[i] === bases[i] ? `${bases[i]} (${id})` : wanted[i];
    for (let n = 2; taken.has(label); n++) label = `${bases[i]} (${id} #${n})`;
    taken.add(label);
    labels.set(id, label);
  }
  return labels;
}

const planLabels = new WeakMap<readonly Labelled[], ReadonlyMap<string, string>>();

/**
 * distinctTaskLabels, built once per task list: a plan's list is never mutated (each edit
 * makes a new one), and every view of a 20,000-task plan asks for it on each render.
 */
export function labelsOfPlan(tasks: readonly Labelled[]): ReadonlyMap<string, string> {
  let labels = planLabels.get(tasks);
  if (!labels) {
    labels = distinctTaskLabels(tasks);
    planLabels.set(tasks, labels);
  }
  return labels;
}

/**
 * A label from distinctTaskLabels split for drawing where room is short: the task's name, and
 * the id part that tells it apart (null when there is none), to be drawn whole beside a name
 * that may be cut ("Extract the key…" + "(extract-findings-2)").
 */
export function splitDistinctLabel(label: string, taskId: string): { name: string; tag: string | null } {
  const at = label.lastIndexOf(` (${taskId}`);
  if (at <= 0 || !label.endsWith(')')) return { name: label, tag: null };
  return { name: label.slice(0, at), tag: label.slice(at + 1) };
}

/**
 * A tag cut in the middle when long, so both ends show: ids that differ tell apart at their
 * ends as often as at their starts ("(fast2bfq_f…sequence_10)"). `max` counts characters.
 */
export function shortTag(tag: string, max = 28): string {
  if (tag.length <= max) return tag;
  const tail = Math.ceil((max - 1) / 2);
  return `${tag.slice(0, max - 1 - tail)}…${tag.slice(-tail)}`;
}
