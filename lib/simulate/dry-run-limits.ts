// Its own module so data-flow.ts and dry-run.ts both read it without importing each other.

/**
 * What one dry run keeps of each task's resolved input and mock output: a value whose JSON
 * is over MAX_TASK_VALUE_BYTES is left out (null), and once the values kept add up to
 * MAX_TASK_DATA_BYTES the later tasks' are left out too. An assumption says so. The
 * schedule, figures and findings are always complete.
 */
export const DRY_RUN_DATA_LIMITS = {
  maxTaskValueBytes: 64 * 1024,
  maxTaskDataBytes: 2 * 1024 * 1024,
  /** Findings listed; the count of the rest is an assumption. */
  maxFindings: 1_000,
  /** Characters of one finding's message. */
  maxFindingChars: 1_000,
} as const;
