import type { Registry, ResourceKind } from '@/lib/registry/schema';

// How each kind of resource is named, tabulated and started from on the registry page.
// Plain data and formatters (no JSX), safe for server and client components alike.

export interface KindLabel {
  /** Section heading, e.g. "Tools". */
  heading: string;
  /** One resource, as used in "New tool (JSON)" and "Add tool". */
  singular: string;
}

/** The order the page shows the kinds in. */
export const KIND_ORDER: readonly ResourceKind[] = ['tools', 'functions', 'agents', 'llms', 'dsl_workflows'];

export const KIND_LABELS: Record<ResourceKind, KindLabel> = {
  tools: { heading: 'Tools', singular: 'tool' },
  functions: { heading: 'Functions', singular: 'function' },
  agents: { heading: 'Agents', singular: 'agent' },
  llms: { heading: 'LLMs', singular: 'LLM' },
  dsl_workflows: { heading: 'DSL workflows', singular: 'DSL workflow' },
};

/** A minimal valid resource of each kind, prefilled in the "Add" form. */
export const KIND_TEMPLATES: Record<ResourceKind, Record<string, unknown>> = {
  tools: {
    id: 'new_tool',
    description: '',
    input_schema: { type: 'object', properties: {}, required: [] },
    default_latency_ms: 1000,
  },
  functions: {
    id: 'new_function',
    description: '',
    input_schema: { type: 'object', properties: {}, required: [] },
    default_latency_ms: 100,
  },
  agents: { id: 'new_agent', name: '', description: '', traits: [] },
  llms: { name: 'new-llm', description: '', context_size: 128000, cost_per_1k_tokens: 0 },
  dsl_workflows: { id: 'new_workflow', description: '', steps: [] },
};

const NOT_SET = 'not set';

function requiredInputs(schema: Record<string, unknown> | undefined): string {
  const required = schema?.required;
  return Array.isArray(required) && required.length ? required.map(String).join(', ') : 'none';
}

const ms = (value: number | undefined) => (value === undefined ? NOT_SET : `${value.toLocaleString('en-US')} ms`);

/** The kind-specific columns after Key and Description: headers and one row's cells. */
export function kindColumns(kind: ResourceKind): string[] {
  switch (kind) {
    case 'tools':
    case 'functions':
      return ['Required inputs', 'Default latency'];
    case 'agents':
      return ['Name', 'Traits'];
    case 'llms':
      return ['Context size', 'Cost per 1k tokens'];
    case 'dsl_workflows':
      return ['Steps'];
  }
}

export function kindCells<K extends ResourceKind>(kind: K, resource: Registry[K][number]): string[] {
  switch (kind) {
    case 'tools':
    case 'functions': {
      const tool = resource as Registry['tools'][number];
      return [requiredInputs(tool.input_schema), ms(tool.default_latency_ms)];
    }
    case 'agents': {
      const agent = resource as Registry['agents'][number];
      return [agent.name || NOT_SET, agent.traits.length ? agent.traits.join(', ') : 'none'];
    }
    case 'llms': {
      const llm = resource as Registry['llms'][number];
      return [
        llm.context_size === undefined ? NOT_SET : `${llm.context_size.toLocaleString('en-US')} tokens`,
        llm.cost_per_1k_tokens === undefined ? NOT_SET : `$${llm.cost_per_1k_tokens}`,
      ];
    }
    case 'dsl_workflows': {
      const dsl = resource as Registry['dsl_workflows'][number];
      return [String(dsl.steps.length)];
    }
  }
  return [];
}
