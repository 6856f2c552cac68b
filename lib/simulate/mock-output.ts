// A deterministic stand-in for what a resource would return, shaped by its output JSON
// Schema: enough structure for templates such as ${step[0].data.*.id} to resolve the way
// they would on real data. Hand-written rather than a faker: the values must be the same on
// every run and readable in the review ("shipments_list-id-1"), not random.

const ARRAY_ITEMS = 3;
const MAX_DEPTH = 8;

type Schema = Record<string, unknown>;

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

export function mockFromSchema(schema: unknown, name: string, depth = 0, index = 1): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as Schema;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('default' in s) return s.default;
  const alternative = firstOf(s);
  if (alternative) return mockFromSchema(alternative, name, depth + 1, index);
  switch (typeOf(s)) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, mockFromSchema(value, `${name}-${key}`, depth + 1, index)]));
    }
    case 'array':
      return Array.from({ length: ARRAY_ITEMS }, (_, i) => mockFromSchema(s.items, name, depth + 1, i + 1));
    case 'integer':
      return index;
    case 'number':
      return index + 0.5;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'date') return `2025-01-0${index}`;
      if (s.format === 'date-time') return `2025-01-0${index}T00:00:00.000Z`;
      return `${name}-${index}`;
    case 'null':
      return null;
    default:
      return `${name}-${index}`;
  }
}

/** A task's mock output: from its resource's output schema, else a generic result record. */
export function mockOutput(taskId: string, target: string | null, outputSchema: unknown): unknown {
  if (outputSchema) return mockFromSchema(outputSchema, target ?? taskId);
  return { data: Array.from({ length: ARRAY_ITEMS }, (_, i) => ({ id: `${target ?? taskId}-${i + 1}` })), task_id: taskId };
}
