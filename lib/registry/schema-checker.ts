import { z } from 'zod';

// Registry schemas are written by editors and run against plan arguments on every
// validation, in the browser and on the server. A `pattern` would become a live RegExp,
// and one with nested quantifiers can take exponential time on a short string, so
// patterns are dropped (they are documentation here) before zod reads the schema.

const checkers = new WeakMap<object, z.ZodType | null>();

function withoutPatterns(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPatterns);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'pattern' && key !== 'patternProperties')
      .map(([key, item]) => [key, withoutPatterns(item)]),
  );
}

/** A zod checker for a JSON Schema, cached per schema object; null when zod cannot read it. */
export function schemaChecker(schema: object): z.ZodType | null {
  if (checkers.has(schema)) return checkers.get(schema)!;
  let checker: z.ZodType | null;
  try {
    checker = z.fromJSONSchema(withoutPatterns(schema) as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    checker = null; // a schema zod cannot read is not the plan's fault
  }
  checkers.set(schema, checker);
  return checker;
}
