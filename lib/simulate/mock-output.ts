import { utf8Bytes } from '@/lib/plan';

// A deterministic stand-in for what a resource would return, shaped by its output JSON
// Schema: enough structure for templates such as ${step[0].data.*.id} to resolve the way
// they would on real data. Hand-written rather than a faker: the values must be the same on
// every run and readable in the review ("shipments_list-id-1"), not random.
//
// A mock output is made within a size budget (about maxBytes of JSON): a schema stored
// before the registry's size limits may hold a `const` of megabytes, and nested arrays
// multiply what a small schema describes (three items a level, eight levels deep). A
// `const`, `enum` or `default` value over the budget is not used (the value is made from
// the schema's type instead), and once the budget is spent the rest of the output is left
// out (null values, shorter arrays and objects); the result says which happened.

const ARRAY_ITEMS = 3;
const MAX_DEPTH = 8;
/** Characters of the name generated strings are made of ("shipments_list-data-id"). */
const MAX_NAME_CHARS = 120;
/** Nesting of a `const`, `enum` or `default` value used as it is. */
const MAX_VALUE_DEPTH = 32;

type Schema = Record<string, unknown>;

export interface MockOutput {
  value: unknown;
  /** About the UTF-8 bytes of the value's JSON. */
  bytes: number;
  /** `const`, `enum` or `default` values over the budget (or nested more than 32 levels), made from the type instead. */
  oversizedValues: number;
  /** Whether the budget ran out and part of the output was left out. */
  cut: boolean;
}

interface Budget {
  maxBytes: number;
  left: number;
  oversizedValues: number;
  cut: boolean;
}

/**
 * About the UTF-8 bytes of `value`'s JSON (strings without their escapes) if at most
 * `limit` and nested at most MAX_VALUE_DEPTH levels, else -1. Iterative, and stops as soon
 * as it knows: a 9 MB string costs one comparison, an array of a million items one.
 */
export function jsonBytesWithin(value: unknown, limit: number): number {
  let bytes = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item === 'string') {
      if (bytes + item.length + 2 > limit) return -1;
      bytes += utf8Bytes(item) + 2;
    } else if (item && typeof item === 'object') {
      if (depth >= MAX_VALUE_DEPTH) return -1;
      if (Array.isArray(item)) {
        bytes += 2 + Math.max(0, item.length - 1);
        if (bytes > limit) return -1;
        for (const element of item) stack.push({ value: element, depth: depth + 1 });
      } else {
        bytes += 2;
        let comma = 0;
        for (const key in item) {
          if (!Object.hasOwn(item, key)) continue;
          if (bytes + key.length + 3 + comma > limit) return -1;
          bytes += utf8Bytes(key) + 3 + comma; // "key": and a comma before all but the first
          comma = 1;
          stack.push({ value: (item as Schema)[key], depth: depth + 1 });
        }
      }
    } else {
      bytes += item === undefined ? 4 : (JSON.stringify(item) ?? 'null').length;
    }
    if (bytes > limit) return -1;
  }
  return bytes;
}

function firstOf(schema: Schema): Schema | undefined {
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) return options[0] as Schema;
  }
  return undefined;
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** The value a schema gives as it is: its `const`, else its first `enum` value, else its `default`. */
function givenValue(s: Schema): { value: unknown } | undefined {
  if ('const' in s) return { value: s.const };
  if (Array.isArray(s.enum) && s.enum.length) return { value: s.enum[0] };
  if ('default' in s) return { value: s.default };
  return undefined;
}

function childName(name: string, key: string): string {
  return name.length >= MAX_NAME_CHARS ? name : `${name}-${key.slice(0, MAX_NAME_CHARS - name.length - 1)}`;
}

/** A leaf value, if the budget has room for it. */
function leaf(budget: Budget, value: unknown): unknown {
  const bytes = typeof value === 'string' ? utf8Bytes(value) + 2 : (JSON.stringify(value) ?? 'null').length;
  if (bytes > budget.left) {
    budget.cut = true;
    budget.left = 0;
    return null;
  }
  budget.left -= bytes;
  return value;
}

function mock(schema: unknown, name: string, budget: Budget, depth: number, index: number): unknown {
  if (budget.left <= 0) {
    budget.cut = true;
    return null;
  }
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return leaf(budget, null);
  const s = schema as Schema;
  const given = givenValue(s);
  if (given) {
    const bytes = jsonBytesWithin(given.value, budget.maxBytes);
    if (bytes < 0) {
      budget.oversizedValues += 1; // made from the type below instead
    } else if (bytes > budget.left) {
      budget.cut = true;
      budget.left = 0;
      return null;
    } else {
      budget.left -= bytes;
      return given.value;
    }
  }
  const alternative = firstOf(s);
  if (alternative) return mock(alternative, name, budget, depth + 1, index);
  switch (typeOf(s)) {
    case 'object': {
      const properties = s.properties && typeof s.properties === 'object' ? (s.properties as Schema) : {};
      const entries: Array<[string, unknown]> = [];
      budget.left -= 2;
      for (const key in properties) {
        if (!Object.hasOwn(properties, key)) continue;
        if (budget.left <= 0 || key.length + 4 > budget.left) {
          budget.cut = true;
          budget.left = 0;
          break;
        }
        budget.left -= utf8Bytes(key) + 4;
        entries.push([key, mock(properties[key], childName(name, key), budget, depth + 1, index)]);
      }
      return Object.fromEntries(entries);
    }
    case 'array': {
      const items: unknown[] = [];
      budget.left -= 2;
      for (let i = 0; i < ARRAY_ITEMS; i++) {
        if (budget.left <= 0) {
          budget.cut = true;
          break;
        }
        budget.left -= 1;
        items.push(mock(s.items, name, budget, depth + 1, i + 1));
      }
      return items;
    }
    case 'integer':
      return leaf(budget, index);
    case 'number':
      return leaf(budget, index + 0.5);
    case 'boolean':
      return leaf(budget, true);
    case 'string':
      if (s.format === 'date') return leaf(budget, `2025-01-0${index}`);
      if (s.format === 'date-time') return leaf(budget, `2025-01-0${index}T00:00:00.000Z`);
      return leaf(budget, `${name}-${index}`);
    case 'null':
      return leaf(budget, null);
    default:
      return leaf(budget, `${name}-${index}`);
  }
}

/** A mock value for `schema`, within about `maxBytes` of JSON (see the top of this file). */
export function mockFromSchema(schema: unknown, name: string, maxBytes: number): MockOutput {
  const budget: Budget = { maxBytes, left: maxBytes, oversizedValues: 0, cut: false };
  const value = mock(schema, name.length > MAX_NAME_CHARS ? name.slice(0, MAX_NAME_CHARS) : name, budget, 0, 1);
  return { value, bytes: maxBytes - Math.max(0, budget.left), oversizedValues: budget.oversizedValues, cut: budget.cut };
}

/** A task's mock output: from its resource's output schema, else a generic result record. */
export function mockOutput(taskId: string, target: string | null, outputSchema: unknown, maxBytes: number): MockOutput {
  if (outputSchema) return mockFromSchema(outputSchema, target ?? taskId, maxBytes);
  const name = (target ?? taskId).slice(0, MAX_NAME_CHARS);
  const value = { data: Array.from({ length: ARRAY_ITEMS }, (_, i) => ({ id: `${name}-${i + 1}` })), task_id: taskId };
  return { value, bytes: jsonBytesWithin(value, Number.MAX_SAFE_INTEGER), oversizedValues: 0, cut: false };
}
