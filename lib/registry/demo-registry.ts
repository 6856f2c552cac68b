import type { RegistryInput } from './schema';

// The registry a new database starts with: seed 001's shipment tools (with the parameters
// its example plans use) and the agents, tools, LLMs and workflow the demo plans route to.

const date = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
const ids = (what: string) => ({
  description: `One ${what} id, or a list of them (as a \${step[i].data.*.id} template yields)`,
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
});
const limit = { type: 'integer', minimum: 1, maximum: 1000, description: 'Maximum rows returned' };
const rows = (fields: Record<string, unknown>) => ({
  type: 'object',
  properties: { data: { type: 'array', items: { type: 'object', properties: fields } } },
});

export const DEMO_REGISTRY: RegistryInput = {
  tools: [
    {
      id: 'shipments_list',
      description: 'Query shipments with filters',
      input_schema: {
        type: 'object',
        properties: {
          date_from: date,
          date_to: date,
          has_contaminants: { type: 'boolean' },
          status: { type: 'string', enum: ['pending', 'accepted', 'rejected', 'in_transit', 'delivered'] },
          facility_id: ids('facility'),
          limit,
        },
      },
      output_schema: rows({ id: { type: 'string' }, facility_id: { type: 'string' }, status: { type: 'string' }, date: date }),
      default_latency_ms: 1500,
      default_cost_usd: 0,
    },
    {
      id: 'facilities_list',
      description: 'Query facilities by location or type',
      input_schema: { type: 'object', properties: { location: { type: 'string' }, type: { type: 'string' }, limit } },
      output_schema: rows({ id: { type: 'string' }, name: { type: 'string' }, location: { type: 'string' } }),
      default_latency_ms: 800,
      default_cost_usd: 0,
    },
    {
      id: 'contaminants_list',
      description: 'Query detected contaminants',
      input_schema: {
        type: 'object',
        properties: { shipment_ids: ids('shipment'), facility_id: ids('facility'), date_from: date, date_to: date, limit },
      },
      output_schema: rows({ id: { type: 'string' }, shipment_id: { type: 'string' }, substance: { type: 'string' }, level: { type: 'number' } }),
      default_latency_ms: 1200,
      default_cost_usd: 0,
    },
    {
      id: 'inspections_list',
      description: 'Query inspections',
      input_schema: { type: 'object', properties: { facility_id: ids('facility'), date_from: date, date_to: date, limit } },
      output_schema: rows({ id: { type: 'string' }, facility_id: { type: 'string' }, result: { type: 'string' } }),
      default_latency_ms: 1000,
      default_cost_usd: 0,
    },
    {
      id: 'papers_repository',
      description: 'Search and fetch research papers',
      input_schema: { type: 'object', properties: { query: { type: 'string' }, max_results: limit } },
      default_latency_ms: 2000,
      default_cost_usd: 0.001,
    },
  ],
  agents: [
    { id: 'summariser', name: 'Summariser', description: 'Condenses documents and results into short summaries', traits: ['concise'] },
    { id: 'analyst', name: 'Analyst', description: 'Finds patterns and outliers in tabular results', traits: ['quantitative'] },
    { id: 'reviewer', name: 'Reviewer', description: 'Checks work for errors and gaps', traits: ['careful'] },
    { id: 'reviewer-agent', name: 'Review agent', description: 'Reviews a drafted report (seed 000)', traits: ['careful'] },
    { id: 'agent-42', name: 'Research agent', description: 'Runs research jobs end to end (seed 000)', traits: [] },
    { id: 'planner', name: 'Planner', description: 'Breaks work into tasks (seed 004)', traits: [] },
  ],
  llms: [
    { name: 'gpt-4', description: 'General-purpose large model', context_size: 8192, cost_per_1k_tokens: 0.03 },
    { name: 'gpt-4o-mini', description: 'Small, fast, cheap model', context_size: 128_000, cost_per_1k_tokens: 0.00015 },
  ],
  dsl_workflows: [
    {
      id: 'report_assembly_workflow',
      description: 'Assembles a report from summaries and reviews',
      steps: ['collect sections', 'order by outline', 'render markdown'],
    },
  ],
};
