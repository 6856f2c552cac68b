// What the dry run's task pickers find for a query: tasks whose name, id or whole description
// holds every word typed (any case, parts of words too), those holding the words together as
// typed first, in plan order. "paper 2" finds "Extract the key findings … of paper 2." even
// though its name on screen is cut before "paper".

export interface SearchableTask {
  id: string;
  label: string;
  /** More words to search (the full description): the label may be shortened. */
  text?: string;
}

const haystacks = new WeakMap<SearchableTask, string>();

function haystack(task: SearchableTask): string {
  let text = haystacks.get(task);
  if (text === undefined) {
    text = `${task.label}\n${task.id}\n${task.text ?? ''}`.toLowerCase();
    haystacks.set(task, text);
  }
  return text;
}

/** At most `limit` matching tasks (phrase matches first) and how many match in all; every task for an empty query. */
export function searchTasks<T extends SearchableTask>(tasks: readonly T[], query: string, limit: number): { options: T[]; total: number } {
  const phrase = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!phrase) return { options: tasks.slice(0, limit), total: tasks.length };
  const words = phrase.split(' ');
  const together: T[] = [];
  const apart: T[] = [];
  for (const task of tasks) {
    const text = haystack(task);
    if (text.includes(phrase)) together.push(task);
    else if (words.every((word) => text.includes(word))) apart.push(task);
  }
  return { options: [...together, ...apart].slice(0, limit), total: together.length + apart.length };
}

/** Whether the text typed into a picker is left over: nothing it finds was picked. */
export function typedButNotPicked(tasks: readonly SearchableTask[], query: string, selected: readonly string[]): boolean {
  if (!query.trim()) return false;
  const picked = new Set(selected);
  return !searchTasks(tasks, query, Number.MAX_SAFE_INTEGER).options.some((task) => picked.has(task.id));
}
