import { executionKind } from './execution-kind';
import { EXECUTION_TYPE_LIST, executionTypeDescriptor } from './execution-types';
import type { PlannerTask } from './schema';

// Finding tasks by what an operator remembers of them: the id, the description, the
// resource it runs on, or any text among its arguments, parameters and instructions.
// Matching is a case-insensitive substring test on one prepared text per task; tasks are
// never mutated (each edit makes new ones), so that text is built once per task object and
// a query over 10,000 tasks is one `includes` each.

type SearchableTask = Pick<PlannerTask, 'task_id' | 'description' | 'execution_type' | 'parameters' | 'arguments' | 'instructions' | 'agent_id' | 'tool_id' | 'function_id'>;

// Between fields, so that a query never matches across the end of one and the start of the next.
const SEPARATOR = '\u0000';
const ALL_TARGET_FIELDS = [...new Set(EXECUTION_TYPE_LIST.map((d) => d.targetField))];
const texts = new WeakMap<SearchableTask, string>();

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/** The fields a search looks at, lower case: a task of a known type by its own target field, else by whichever it names. */
function searchText(task: SearchableTask): string {
  let text = texts.get(task);
  if (text !== undefined) return text;
  const known = executionTypeDescriptor(executionKind(task));
  const fields = [task.task_id, task.description ?? '', task.instructions ?? ''];
  for (const field of known ? [known.targetField] : ALL_TARGET_FIELDS) fields.push(task[field] ?? '');
  collectStrings(task.arguments, fields);
  collectStrings(task.parameters, fields);
  text = fields.join(SEPARATOR).toLowerCase();
  texts.set(task, text);
  return text;
}

/** The query as matched: trimmed and lower case; empty means "no search". */
export function normaliseQuery(query: string): string {
  return query.trim().toLowerCase();
}

/** Whether the task's id, description, target, instructions or any string in its arguments or parameters holds the query. */
export function taskMatches(task: SearchableTask, query: string): boolean {
  const q = normaliseQuery(query);
  return q !== '' && searchText(task).includes(q);
}

/** The ids of the matching tasks in plan order, each once; null for an empty query (nothing is searched). */
export function matchingTaskIds(tasks: readonly SearchableTask[], query: string): string[] | null {
  const q = normaliseQuery(query);
  if (!q) return null;
  const seen = new Set<string>();
  for (const task of tasks) if (!seen.has(task.task_id) && searchText(task).includes(q)) seen.add(task.task_id);
  return [...seen];
}
