import { EXECUTION_TYPES, OTHER_EXECUTION_TYPE, executionKind, executionTypeDescriptor, readEstimate, type PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';

// How long each task takes and what it costs in a dry run: the task's own estimate, else
// its registry resource's default, else a per-type default. Every default used is listed
// as an assumption, so the approver sees what the figures rest on. `estimate_data` is
// free-form (seed 000: `Any`): the keys read are latency_ms, cost_usd and tokens when they
// are non-negative numbers; whatever else a task's estimate holds is listed as not used.

/** The dry run's task types, by code: the four execution types, then every other value. */
export const TYPE_CODES = [...EXECUTION_TYPES, 'other'] as const;
export type TypeName = (typeof TYPE_CODES)[number];

const OTHER_CODE = TYPE_CODES.indexOf('other');
const defaultLatencyMs = (type: TypeName) => (executionTypeDescriptor(type) ?? OTHER_EXECUTION_TYPE).defaultLatencyMs;
const DEFAULT_LLM_TOKENS = 1000;
/** Tasks named one by one in the "not used" assumption; the rest are counted. */
const UNREAD_LISTED = 5;
const clip = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max)}…` : text);

export interface TaskEstimates {
  durations: Float64Array;
  costs: Float64Array;
  types: Uint8Array;
  assumptions: string[];
}

export function estimateTasks(tasks: readonly PlannerTask[], registry: Registry): TaskEstimates {
  const tools = new Map([...registry.tools, ...registry.functions].map((t) => [t.id, t]));
  const llms = new Map(registry.llms.map((l) => [l.name, l]));
  const n = tasks.length;
  const durations = new Float64Array(n);
  const costs = new Float64Array(n);
  const types = new Uint8Array(n);
  const defaulted = new Map<TypeName, number>();
  let registryLatency = 0;
  let registryCost = 0;
  let llmCostFromTokens = 0;
  const unread: string[] = [];
  let unreadTasks = 0;
  tasks.forEach((task, i) => {
    const kind = executionKind(task);
    const code = executionTypeDescriptor(kind) ? TYPE_CODES.indexOf(kind as TypeName) : OTHER_CODE;
    const type = TYPE_CODES[code];
    types[i] = code;
    const tool = task.tool_id ? tools.get(task.tool_id) : undefined;
    const llm = type === 'llm' && task.function_id ? llms.get(task.function_id) : undefined;
    const estimate = readEstimate(task.estimate_data);
    if (estimate.unread.length && ++unreadTasks <= UNREAD_LISTED) {
      unread.push(`"${clip(task.task_id)}" (${estimate.unread.slice(0, 5).map((k) => clip(k)).join(', ')}${estimate.unread.length > 5 ? ', …' : ''})`);
    }
    if (estimate.latency_ms !== undefined) durations[i] = estimate.latency_ms;
    else if (tool?.default_latency_ms !== undefined) {
      durations[i] = tool.default_latency_ms;
      registryLatency++;
    } else {
      durations[i] = defaultLatencyMs(type);
      defaulted.set(type, (defaulted.get(type) ?? 0) + 1);
    }
    if (estimate.cost_usd !== undefined) costs[i] = estimate.cost_usd;
    else if (tool?.default_cost_usd !== undefined) {
      costs[i] = tool.default_cost_usd;
      registryCost++;
    } else if (llm?.cost_per_1k_tokens !== undefined) {
      costs[i] = (llm.cost_per_1k_tokens * (estimate.tokens ?? DEFAULT_LLM_TOKENS)) / 1000;
      llmCostFromTokens++;
    }
  });
  const assumptions: string[] = [];
  for (const [type, count] of defaulted) {
    assumptions.push(`${count} ${type} task${count === 1 ? '' : 's'} without a latency estimate: ${defaultLatencyMs(type).toLocaleString('en')} ms each (default for ${type})`);
  }
  if (registryLatency) assumptions.push(`${registryLatency} task${registryLatency === 1 ? '' : 's'} use their tool's default latency from the registry`);
  if (registryCost) assumptions.push(`${registryCost} task${registryCost === 1 ? '' : 's'} use their tool's default cost from the registry`);
  if (llmCostFromTokens) assumptions.push(`${llmCostFromTokens} LLM task${llmCostFromTokens === 1 ? '' : 's'} costed from the model's price per 1k tokens (${DEFAULT_LLM_TOKENS.toLocaleString('en')} tokens where no estimate is given)`);
  if (unreadTasks) {
    const more = unreadTasks > UNREAD_LISTED ? ` and ${unreadTasks - UNREAD_LISTED} more task${unreadTasks - UNREAD_LISTED === 1 ? '' : 's'}` : '';
    assumptions.push(`estimate_data not used by the dry run (it reads latency_ms, cost_usd and tokens as non-negative numbers): ${unread.join('; ')}${more}`);
  }
  return { durations, costs, types, assumptions };
}
