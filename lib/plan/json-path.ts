/** `plan.planned_tasks[2].dependencies` style paths, as a client would write them, below `at`. */
export function formatPath(path: ReadonlyArray<PropertyKey>, at = ''): string {
  let out = at;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || '(root)';
}
