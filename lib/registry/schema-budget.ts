// A complexity budget for the JSON Schemas editors put in the registry. Each schema is
// turned into a zod checker and run against plan arguments on every validation and dry
// run, for every task, in the browser and on the server: a schema with thousands of
// `anyOf` branches or enum values makes one validation of a large plan take seconds and
// its messages megabytes, and a very deep one overflows the stack of recursive code.
// Registry writes are refused over the budget (the zod schemas in ./schema.ts); a schema
// stored before the budget existed is skipped by the checks that would run it
// (schemaChecker), not allowed to stall them.

export const SCHEMA_LIMITS = {
  /** Nesting of objects and arrays in the schema document (`properties.a` is two levels). */
  maxDepth: 32,
  /** `anyOf`, `oneOf` and `allOf` branches, added up over the whole schema. */
  maxBranches: 256,
  /** Values of one `enum`. */
  maxEnumValues: 1_000,
  /** Objects, arrays and values in the whole schema document. */
  maxNodes: 10_000,
} as const;

export interface SchemaComplexityProblem {
  /** Which limit. */
  limit: keyof typeof SCHEMA_LIMITS;
  /** Where in the schema, as keys and indexes from its root. */
  path: Array<string | number>;
  /** What is over which limit, without the path. */
  reason: string;
  /** The reason and the path: "An enum has 5,000 values; the limit is 1,000 (at input_schema.properties.status.enum)". */
  message: string;
}

const BRANCH_KEYS = new Set(['anyOf', 'oneOf', 'allOf']);

function formatPath(path: ReadonlyArray<string | number>): string {
  if (!path.length) return 'the top level';
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${i ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`)).join('');
}

/**
 * The first way `schema` exceeds SCHEMA_LIMITS, or null when it is within them. Iterative
 * (no recursion, so a 100,000-deep document is measured, not a stack overflow) and stops
 * at the first problem; `at` prefixes the path in the message (e.g. "input_schema").
 */
export function schemaComplexityProblem(schema: unknown, at: ReadonlyArray<string | number> = []): SchemaComplexityProblem | null {
  const { maxDepth, maxBranches, maxEnumValues, maxNodes } = SCHEMA_LIMITS;
  const problem = (limit: SchemaComplexityProblem['limit'], path: Array<string | number>, reason: string): SchemaComplexityProblem => {
    const full = [...at, ...path];
    return { limit, path: full, reason, message: `${reason} (at ${formatPath(full)})` };
  };
  const tooManyNodes = (path: Array<string | number>) =>
    problem('maxNodes', path, `The schema has more than ${maxNodes.toLocaleString('en')} nodes (objects, arrays and values); the limit is ${maxNodes.toLocaleString('en')}`);
  // Each entry: a value, its path and its depth (objects and arrays above it).
  const stack: Array<{ value: unknown; path: Array<string | number>; depth: number }> = [{ value: schema, path: [], depth: 0 }];
  let nodes = 0;
  let branches = 0;
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    nodes += 1;
    if (nodes > maxNodes) return tooManyNodes(path);
    if (!value || typeof value !== 'object') continue;
    if (depth + 1 > maxDepth) return problem('maxDepth', path, `The schema is nested more than ${maxDepth} levels deep; the limit is ${maxDepth}`);
    if (Array.isArray(value)) {
      if (nodes + stack.length + value.length > maxNodes) return tooManyNodes(path);
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i], depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (nodes + stack.length + entries.length > maxNodes) return tooManyNodes(path);
    for (const [key, item] of entries) {
      if (BRANCH_KEYS.has(key) && Array.isArray(item)) {
        branches += item.length;
        if (branches > maxBranches) {
          return problem('maxBranches', [...path, key], `The schema has ${branches.toLocaleString('en')} anyOf/oneOf/allOf branches once this ${key} of ${item.length.toLocaleString('en')} is counted; the limit is ${maxBranches} in all`);
        }
      }
      if (key === 'enum' && Array.isArray(item) && item.length > maxEnumValues) {
        return problem('maxEnumValues', [...path, key], `An enum has ${item.length.toLocaleString('en')} values; the limit is ${maxEnumValues.toLocaleString('en')}`);
      }
    }
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], path: [...path, entries[i][0]], depth: depth + 1 });
  }
  return null;
}
