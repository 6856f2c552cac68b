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

/**
 * The size of `text` in UTF-8, as stored and sent (a lone surrogate counts as the 3 bytes of
 * U+FFFD, as TextEncoder writes it). Counted, not encoded: a dry run sizes every task's data
 * this way, and encoding each string to count it was a tenth of a 20,000-task dry run.
 */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
      continue;
    }
    bytes += 2;
    // A surrogate pair is two units and four bytes (its low half adds nothing more); a lone
    // surrogate is written as U+FFFD, three bytes, as any other unit from U+0800.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return bytes;
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

// PostgreSQL text cannot hold NUL, and jsonb refuses a UTF-16 surrogate without its pair.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What a JSON value holds that no database row can: the first key or string with a NUL
 * character or an unpaired surrogate, or a nesting deeper than `maxDepth`. Iterative, so
 * any depth is safe to check; null when the value is fine.
 */
export function unstorableJson(value: unknown, maxDepth: number): 'depth' | 'text' | null {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return 'text';
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    if (depth > maxDepth) return 'depth';
    for (const [key, child] of Object.entries(item)) {
      if (UNSTORABLE.test(key)) return 'text';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}
