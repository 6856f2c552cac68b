import type { ReviewMarksData } from '@/lib/flow/review-marks';
import { MARK_STYLE } from './mark-style';

// What the marks on the review canvas mean, in words and symbols as well as colours, with
// how many tasks carry each and links from each removed task to its entry in the diff.

/** The id of a task's entry in the diff. The fragment is matched as written before decoding, so one encoding serves id and href. */
export const diffAnchor = (taskId: string) => `diff-${encodeURIComponent(taskId)}`;

/** Removed tasks linked by name in the legend; the rest are counted. */
const LINKED = 12;

function Swatch({ kind, text }: { kind: keyof typeof MARK_STYLE; text?: string }) {
  const style = MARK_STYLE[kind];
  return (
    <span className={`rounded px-1 font-semibold ${style.badge}`}>
      <span aria-hidden>{style.symbol}</span> {text ?? style.label}
    </span>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function ReviewLegend({ data, base, revision }: { data: ReviewMarksData | null; base: number; revision: number }) {
  if (!data) {
    return <p className="text-xs text-slate-700">Revision {revision} is the plan&apos;s first: every task is new, so no task is marked.</p>;
  }
  const counts = { added: 0, changed: 0, replaces: 0 };
  for (const mark of Object.values(data.marks)) counts[mark.kind] += 1;
  const { removed } = data;
  if (counts.added + counts.changed + counts.replaces + removed.length === 0) {
    return <p className="text-xs text-slate-700">No task differs from revision {base}; nothing on the canvas is marked.</p>;
  }
  return (
    <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-700">
      <span className="font-semibold">Marked against revision {base}:</span>
      <ul aria-label="Canvas legend" className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <li>
          <Swatch kind="added" /> {plural(counts.added, 'task', 'tasks')} new
        </li>
        <li>
          <Swatch kind="replaces" text="replaces X" /> {plural(counts.replaces, 'task replaces', 'tasks replace')} a removed one
        </li>
        <li>
          <Swatch kind="changed" /> {plural(counts.changed, 'task', 'tasks')} with changed fields or dependencies
        </li>
        <li>
          <span className="rounded border border-dashed border-slate-500 bg-slate-50 px-1 font-semibold text-slate-800">
            <span aria-hidden>{MARK_STYLE.removed.symbol}</span> removed
          </span>{' '}
          {plural(removed.length, 'task', 'tasks')} removed, drawn dashed
          {removed.length > 0 && ': '}
          {removed.slice(0, LINKED).map((task, i) => (
            <span key={task.task_id}>
              {i > 0 && ', '}
              <a href={`#${diffAnchor(task.task_id)}`} className="font-mono text-brand-700 underline hover:text-brand-800">
                {task.task_id}
              </a>
              {task.replacedBy.length > 0 && ` (replaced by ${task.replacedBy.join(', ')})`}
            </span>
          ))}
          {removed.length > LINKED && `, and ${removed.length - LINKED} more in the diff below`}
        </li>
      </ul>
    </div>
  );
}
