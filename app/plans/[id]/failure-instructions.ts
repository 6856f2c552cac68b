import type { TaskRunView } from '@/lib/api/run-schemas';

// The replanner's instructions, prefilled from a run that stopped: what failed and why, one
// line per task, so the replacement is planned around the failure. The operator edits them.

const MAX_ERROR = 300;
/** The replan request's own limit on instructions. */
const MAX_TOTAL = 4000;

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

export function failureInstructions(runId: string, failed: Pick<TaskRunView, 'task_id' | 'attempts' | 'error'>[]): string {
  const lines: string[] = [];
  let length = 0;
  for (const [index, task] of failed.entries()) {
    const attempts = `${task.attempts} attempt${task.attempts === 1 ? '' : 's'}`;
    const error = truncate((task.error ?? 'no error recorded').replace(/\s+/g, ' ').trim(), MAX_ERROR);
    const line = `Task ${task.task_id} failed in run ${runId.slice(0, 8)} after ${attempts}: ${error}`;
    const rest = failed.length - index;
    // Room is kept for the note that says how many were left out.
    if (length + line.length + 1 > MAX_TOTAL - 60 && rest > 1) {
      lines.push(`…and ${rest} more failed tasks (see run ${runId.slice(0, 8)}).`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}
