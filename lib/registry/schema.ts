import { z } from 'zod';
import { endpointFor } from './endpoint';
import { schemaComplexityProblem } from './schema-budget';

// The resources a plan's tasks are routed to (seed 000's agents, tools/functions, LLMs and
// DSL workflows). Input and output schemas are JSON Schema objects, as tool catalogues
// (and MCP servers) publish them.

export const JsonSchemaObject = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

/**
 * A JSON Schema an editor writes to the registry: within SCHEMA_LIMITS (schema-budget.ts),
 * else refused with the limit and the path of the problem. Rows stored before the budget
 * are read with STORED_RESOURCE_SCHEMAS, which does not apply it.
 */
export const BudgetedJsonSchema = JsonSchemaObject.superRefine((schema, ctx) => {
  const problem = schemaComplexityProblem(schema);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.reason, path: problem.path, input: schema });
});

const ResourceId = z
  .string()
  .min(1, 'An id is required')
  .max(200, 'Ids are at most 200 characters')
  .regex(/^[\w.:/-]+$/, 'Ids are letters, digits and . _ : / -');
const Description = z.string().max(10_000).default('');

function resourceSchemas(schemaField: typeof JsonSchemaObject | typeof BudgetedJsonSchema) {
  return {
    agent: z.strictObject({
      id: ResourceId,
      name: z.string().max(200).default(''),
      description: Description,
      traits: z.array(z.string().max(200)).max(100).default([]),
      input_schema: schemaField.optional(),
      endpoint: endpointFor('agents').optional(),
    }),
    tool: z.strictObject({
      id: ResourceId,
      description: Description,
      input_schema: schemaField.default({ type: 'object', properties: {} }),
      output_schema: schemaField.optional(),
      default_latency_ms: z.number().nonnegative().optional(),
      default_cost_usd: z.number().nonnegative().optional(),
      endpoint: endpointFor('tools').optional(),
    }),
    llm: z.strictObject({
      name: ResourceId,
      description: Description,
      context_size: z.number().int().positive().optional(),
      cost_per_1k_tokens: z.number().nonnegative().optional(),
      endpoint: endpointFor('llms').optional(),
    }),
    dsl: z.strictObject({
      id: ResourceId,
      description: Description,
      steps: z.array(z.string().max(2000)).max(500).default([]),
      input_schema: schemaField.optional(),
      endpoint: endpointFor('dsl_workflows').optional(),
    }),
  };
}

const written = resourceSchemas(BudgetedJsonSchema);
const stored = resourceSchemas(JsonSchemaObject);

export const AgentResource = written.agent;
export const ToolResource = written.tool;
export const LlmResource = written.llm;
export const DslResource = written.dsl;

// Every resource goes into planning prompts and one import is one INSERT, so each kind is capped.
const MAX_PER_KIND = 1000;
const resourceList = <T extends z.ZodType>(resource: T) => z.array(resource).max(MAX_PER_KIND, `At most ${MAX_PER_KIND} resources of a kind`).default([]);

export const Registry = z.strictObject({
  agents: resourceList(AgentResource),
  tools: resourceList(ToolResource),
  functions: resourceList(ToolResource),
  llms: resourceList(LlmResource),
  dsl_workflows: resourceList(DslResource),
});
export type Registry = z.infer<typeof Registry>;
export type RegistryInput = z.input<typeof Registry>;

export const RESOURCE_KINDS = ['agents', 'tools', 'functions', 'llms', 'dsl_workflows'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export const RESOURCE_SCHEMAS = {
  agents: AgentResource,
  tools: ToolResource,
  functions: ToolResource,
  llms: LlmResource,
  dsl_workflows: DslResource,
} as const satisfies Record<ResourceKind, z.ZodType>;

/**
 * The same resources without the schema complexity budget: for reading rows stored before
 * it existed, which must still load (the checks that would run an over-budget schema skip
 * it, see schemaChecker). Writes use RESOURCE_SCHEMAS.
 */
export const STORED_RESOURCE_SCHEMAS = {
  agents: stored.agent,
  tools: stored.tool,
  functions: stored.tool,
  llms: stored.llm,
  dsl_workflows: stored.dsl,
} as const satisfies Record<ResourceKind, z.ZodType>;

export type Resource = Registry[ResourceKind][number];

/** A resource's key within its kind: LLMs are named, everything else has an id. */
export function resourceKey(resource: Resource): string {
  return 'name' in resource && !('id' in resource) ? resource.name : (resource as { id: string }).id;
}

/** Refuses a registry that names one resource twice within a kind. */
export function duplicateKeys(registry: Registry): string[] {
  const duplicates: string[] = [];
  for (const kind of RESOURCE_KINDS) {
    const seen = new Set<string>();
    for (const resource of registry[kind]) {
      const key = resourceKey(resource);
      if (seen.has(key)) duplicates.push(`${kind}: ${key}`);
      seen.add(key);
    }
  }
  return duplicates;
}
