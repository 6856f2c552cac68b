// A complexity budget for the JSON Schemas editors put in the registry. Each schema is
// turned into a zod checker and run against plan arguments on every validation and dry
// run, for every task, in the browser and on the server: a schema with thousands of
// `anyOf` branches or enum values makes one validation of a large plan take seconds and
// its messages megabytes, and a very deep one overflows the stack of recursive code. A
// dry run makes mock outputs from a schema's `const`/`enum`/`default` and copies them into
// the inputs downstream, so strings (and the whole schema) are limited in size too.
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
  /**
   * Characters of any one string in the schema: a key, or a value (`const`, `default`,
   * `enum` and `examples` entries, `description`, `pattern`…). A dry run makes mock outputs
   * from `const`/`enum`/`default` and copies them into the inputs downstream.
   */
  maxStringChars: 10_000,
  /** UTF-8 bytes of the whole schema as JSON (JSON.stringify, no spaces). */
  maxSchemaBytes: 256 * 1024,
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

/** Keys longer than this are shortened in messages (the path itself keeps them whole). */
const MAX_KEY_CHARS_SHOWN = 100;

function formatPath(path: ReadonlyArray<string | number>): string {
  if (!path.length) return 'the top level';
  const shown = (key: string) => (key.length > MAX_KEY_CHARS_SHOWN ? `${key.slice(0, MAX_KEY_CHARS_SHOWN)}…` : key);
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${i ? '.' : ''}${shown(key)}` : `[${JSON.stringify(shown(key))}]`)).join('');
}

/** UTF-8 bytes of JSON.stringify(text), counted without making it (this also runs in the browser). */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) bytes += 2;
    else if (c < 0x20) bytes += 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff) {
      bytes += 4;
      i += 1;
    } else if (c >= 0xd800 && c <= 0xdfff) bytes += 6; // a lone surrogate is written as \uXXXX
    else bytes += 3;
  }
  return bytes;
}

function primitiveJsonBytes(value: unknown): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  return (JSON.stringify(value) ?? 'null').length;
}

/**
 * The first way `schema` exceeds SCHEMA_LIMITS, or null when it is within them. Iterative
 * (no recursion, so a 100,000-deep document is measured, not a stack overflow) and stops
 * at the first problem; `at` prefixes the path in the message (e.g. "input_schema").
 */
export function schemaComplexityProblem(schema: unknown, at: ReadonlyArray<string | number> = []): SchemaComplexityProblem | null {
  const { maxDepth, maxBranches, maxEnumValues, maxNodes, maxStringChars, maxSchemaBytes } = SCHEMA_LIMITS;
  const problem = (limit: SchemaComplexityProblem['limit'], path: Array<string | number>, reason: string): SchemaComplexityProblem => {
    const full = [...at, ...path];
    return { limit, path: full, reason, message: `${reason} (at ${formatPath(full)})` };
  };
  const tooManyNodes = (path: Array<string | number>) =>
    problem('maxNodes', path, `The schema has more than ${maxNodes.toLocaleString('en')} nodes (objects, arrays and values); the limit is ${maxNodes.toLocaleString('en')}`);
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} kB`;
  const tooLong = (path: Array<string | number>, what: string, chars: number) =>
    problem('maxStringChars', path, `${what} has ${chars.toLocaleString('en')} characters; the limit is ${maxStringChars.toLocaleString('en')}`);
  // The schema's JSON, counted as the walk goes: every string is measured only once it is
  // known to be within maxStringChars, so a 9 MB string costs one comparison.
  let bytes = 0;
  const count = (path: Array<string | number>, more: number) => {
    bytes += more;
    return bytes > maxSchemaBytes ? problem('maxSchemaBytes', path, `The schema is over ${kb(maxSchemaBytes)} of JSON once this is counted; the limit is ${kb(maxSchemaBytes)}`) : null;
  };
  // Each entry: a value, its path and its depth (objects and arrays above it).
  const stack: Array<{ value: unknown; path: Array<string | number>; depth: number }> = [{ value: schema, path: [], depth: 0 }];
  let nodes = 0;
  let branches = 0;
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    nodes += 1;
    if (nodes > maxNodes) return tooManyNodes(path);
    if (!value || typeof value !== 'object') {
      if (typeof value === 'string' && value.length > maxStringChars) return tooLong(path, 'A string', value.length);
      const over = count(path, primitiveJsonBytes(value));
      if (over) return over;
      continue;
    }
    if (depth + 1 > maxDepth) return problem('maxDepth', path, `The schema is nested more than ${maxDepth} levels deep; the limit is ${maxDepth}`);
    if (Array.isArray(value)) {
      if (nodes + stack.length + value.length > maxNodes) return tooManyNodes(path);
      const over = count(path, 2 + Math.max(0, value.length - 1)); // [ ] and commas
      if (over) return over;
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i], depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (nodes + stack.length + entries.length > maxNodes) return tooManyNodes(path);
    const braces = count(path, 2 + Math.max(0, entries.length - 1)); // { } and commas
    if (braces) return braces;
    for (const [key, item] of entries) {
      if (key.length > maxStringChars) return tooLong(path, 'A key', key.length);
      const over = count([...path, key], jsonStringBytes(key) + 1); // "key":
      if (over) return over;
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
