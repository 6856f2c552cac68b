import type { DryRunResult, TaskRun } from './dry-run';

// A dry run's per-task part (4.6 MB of JSON for 20,000 tasks) travels and is stored as JSON
// text in pages: the compute worker writes it (lib/compute/jobs.ts), the server stores one
// row a page and splices the pages into its answer without parsing them, so no single step
// on the server's thread handles the whole list. The rest of the result is small and stays
// an object.

/** A page holds at most this many tasks... */
export const DRY_RUN_PAGE_TASKS = 500;
/** ...and is closed once its text passes this many characters (a task's data may be up to 64 kB). */
export const DRY_RUN_PAGE_CHARS = 256 * 1024;

/** A dry run as the worker hands it over: the result with an empty task list (its keys in order) and the tasks' pages. */
export interface DryRunPages {
  summary: DryRunResult;
  /** Each the JSON text of an array of tasks, in plan order; none for a plan without tasks. */
  taskPages: string[];
  taskCount: number;
}

/** The tasks as pages of JSON arrays, cut by DRY_RUN_PAGE_TASKS and DRY_RUN_PAGE_CHARS. */
export function taskPagesOf(tasks: readonly TaskRun[]): string[] {
  const pages: string[] = [];
  let page: string[] = [];
  let chars = 0;
  for (const task of tasks) {
    const text = JSON.stringify(task);
    page.push(text);
    chars += text.length + 1;
    if (page.length >= DRY_RUN_PAGE_TASKS || chars >= DRY_RUN_PAGE_CHARS) {
      pages.push(`[${page.join(',')}]`);
      page = [];
      chars = 0;
    }
  }
  if (page.length) pages.push(`[${page.join(',')}]`);
  return pages;
}

/** A dry run's result split for the trip to the server and for storage. */
export function dryRunPages(result: DryRunResult): DryRunPages {
  // The spread keeps `tasks` where it was among the keys, so the answer spliced back together is the result as dryRun wrote it.
  return { summary: { ...result, tasks: [] }, taskPages: taskPagesOf(result.tasks), taskCount: result.tasks.length };
}

/** The text of one JSON array holding every page's elements, in order, without parsing them. */
export function joinTaskPages(pages: readonly string[]): string {
  const inner = pages.map((page) => page.trim().slice(1, -1).trim()).filter((elements) => elements.length > 0);
  return `[${inner.join(',')}]`;
}
