// Limits keep one plan small enough to validate, render and diff interactively;
// they are checked at every boundary so an oversized plan fails early and clearly.
export const PLAN_LIMITS = {
  maxTasks: 20_000,
  maxDescriptionBytes: 10 * 1024,
  maxConvertorCodeBytes: 64 * 1024,
  maxPlanBytes: 10 * 1024 * 1024,
  /** Nesting of free-form JSON (parameters, arguments, output…); deeper values would overflow hashing. */
  maxJsonDepth: 64,
} as const;

const encoder = new TextEncoder();

/** The size of `text` in UTF-8, as stored and sent; TextEncoder, so it runs in the browser too. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** The UTF-8 size of `text` when it is over `limit` bytes, otherwise null. */
export function bytesOverLimit(text: string, limit: number): number | null {
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short strings need no encoding;
  // that keeps checking 20,000 descriptions cheap.
  if (text.length * 3 <= limit) return null;
  const bytes = utf8Bytes(text);
  return bytes > limit ? bytes : null;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} bytes`;
}

/** Whether `value` nests deeper than `limit` levels. Iterative, so any depth is safe to check. */
export function jsonDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
