import { EXECUTION_TYPES, OTHER_EXECUTION_TYPE, executionKind, executionTypeDescriptor, readEstimate, type PlannerTask } from '@/lib/plan';
import type { Registry } from '@/lib/registry';
import type { Finding } from './data-flow';

// How long each task takes and what it costs in a dry run: the task's own estimate, else
// its registry resource's default, else a per-type default. Every default used is listed
// as an assumption, naming the tasks, so the approver sees what the figures rest on. A
// task with no cost from any of these has an unknown cost, and so does the plan's total:
// it is never counted as $0. `estimate_data` is free-form (seed 000: `Any`): the keys read
// are latency_ms, cost_usd and tokens when they are non-negative numbers; whatever else a
// task's estimate holds is listed as not used.
//
// Figures beyond MAX_ESTIMATE are findings and not used: 20,000 of them still add up to a
// finite, exact-enough total, so no figure of the dry run overflows into a non-number.

/** The dry run's task types, by code: the four execution types, then every other value. */
export const TYPE_CODES = [...EXECUTION_TYPES, 'other'] as const;
export type TypeName = (typeof TYPE_CODES)[number];

const OTHER_CODE = TYPE_CODES.indexOf('other');
const defaultLatencyMs = (type: TypeName) => (executionTypeDescriptor(type) ?? OTHER_EXECUTION_TYPE).defaultLatencyMs;
const DEFAULT_LLM_TOKENS = 1000;
/** Tasks named one by one in an assumption; the rest are counted. */
const LISTED = 5;
/** The largest latency (ms, about 31 years) or cost (USD) one task may be estimated at. */
export const MAX_ESTIMATE = 1e12;
const clip = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max)}…` : text);

export interface TaskEstimates {
  durations: Float64Array;
  /** 0 where the cost is unknown (see costUnknown). */
  costs: Float64Array;
  types: Uint8Array;
  /** Node indexes of the tasks without any cost estimate. */
  costUnknown: number[];
  assumptions: string[];
  findings: Finding[];
}

/** "a", "b", "c" and 4 more: the first LISTED names, then a count. */
export function listTasks(ids: readonly string[]): string {
  const named = ids.slice(0, LISTED).map((id) => `"${clip(id)}"`).join(', ');
  const rest = ids.length - LISTED;
  return rest > 0 ? `${named} and ${rest.toLocaleString('en')} more` : named;
}

const plural = (count: number, word: string) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

export function estimateTasks(tasks: readonly PlannerTask[], registry: Registry): TaskEstimates {
  const tools = new Map([...registry.tools, ...registry.functions].map((t) => [t.id, t]));
  const llms = new Map(registry.llms.map((l) => [l.name, l]));
  const n = tasks.length;
  const durations = new Float64Array(n);
  const costs = new Float64Array(n);
  const types = new Uint8Array(n);
  const defaulted = new Map<TypeName, string[]>();
  const registryLatency: string[] = [];
  const registryCost: string[] = [];
  const llmCostFromTokens: string[] = [];
  const costUnknown: number[] = [];
  const findings: Finding[] = [];
  const unread: string[] = [];
  let unreadTasks = 0;
  /** The figure when it is within range; else a finding, and undefined (as if not given). */
  const inRange = (task: PlannerTask, what: string, value: number | undefined, unit: string): number | undefined => {
    if (value === undefined || (Number.isFinite(value) && value <= MAX_ESTIMATE)) return value;
    findings.push({
      task_id: task.task_id,
      code: 'estimate_out_of_range',
      message: `${what} of ${String(value)} ${unit} is beyond what a dry run adds up (at most ${MAX_ESTIMATE.toExponential()} ${unit}); it is not used`,
    });
    return undefined;
  };
  tasks.forEach((task, i) => {
    const kind = executionKind(task);
    const code = executionTypeDescriptor(kind) ? TYPE_CODES.indexOf(kind as TypeName) : OTHER_CODE;
    const type = TYPE_CODES[code];
    types[i] = code;
    const tool = task.tool_id ? tools.get(task.tool_id) : undefined;
    const llm = type === 'llm' && task.function_id ? llms.get(task.function_id) : undefined;
    const estimate = readEstimate(task.estimate_data);
    if (estimate.unread.length && ++unreadTasks <= LISTED) {
      unread.push(`"${clip(task.task_id)}" (${estimate.unread.slice(0, 5).map((k) => clip(k)).join(', ')}${estimate.unread.length > 5 ? ', …' : ''})`);
    }
    const ownLatency = inRange(task, 'The latency estimate (latency_ms)', estimate.latency_ms, 'ms');
    const toolLatency = ownLatency === undefined ? inRange(task, "The registry's default latency of its tool", tool?.default_latency_ms, 'ms') : undefined;
    if (ownLatency !== undefined) durations[i] = ownLatency;
    else if (toolLatency !== undefined) {
      durations[i] = toolLatency;
      registryLatency.push(task.task_id);
    } else {
      durations[i] = defaultLatencyMs(type);
      // Appended in place: copying the list per task made 20,000 tasks without an estimate
      // quadratic (1.5 s on the dry-run page's server render).
      const same = defaulted.get(type);
      if (same) same.push(task.task_id);
      else defaulted.set(type, [task.task_id]);
    }
    const ownCost = inRange(task, 'The cost estimate (cost_usd)', estimate.cost_usd, 'USD');
    const toolCost = ownCost === undefined ? inRange(task, "The registry's default cost of its tool", tool?.default_cost_usd, 'USD') : undefined;
    const tokenCost =
      ownCost === undefined && toolCost === undefined && llm?.cost_per_1k_tokens !== undefined
        ? inRange(task, 'The cost from its model\'s price per 1k tokens', (llm.cost_per_1k_tokens * (estimate.tokens ?? DEFAULT_LLM_TOKENS)) / 1000, 'USD')
        : undefined;
    if (ownCost !== undefined) costs[i] = ownCost;
    else if (toolCost !== undefined) {
      costs[i] = toolCost;
      registryCost.push(task.task_id);
    } else if (tokenCost !== undefined) {
      costs[i] = tokenCost;
      llmCostFromTokens.push(task.task_id);
    } else costUnknown.push(i);
  });
  const assumptions: string[] = [];
  for (const [type, ids] of defaulted) {
    assumptions.push(`${plural(ids.length, `${type} task`)} without a latency estimate: ${defaultLatencyMs(type).toLocaleString('en')} ms each (default for ${type}): ${listTasks(ids)}`);
  }
  if (registryLatency.length) assumptions.push(`${plural(registryLatency.length, 'task')} use their tool's default latency from the registry: ${listTasks(registryLatency)}`);
  if (costUnknown.length) {
    const ids = costUnknown.map((i) => tasks[i]!.task_id);
    assumptions.push(`${plural(ids.length, 'task')} without a cost estimate (no cost_usd of their own, no registry default, no model price), so any total cost that includes them is unknown: ${listTasks(ids)}`);
  }
  if (registryCost.length) assumptions.push(`${plural(registryCost.length, 'task')} use their tool's default cost from the registry: ${listTasks(registryCost)}`);
  if (llmCostFromTokens.length) {
    assumptions.push(
      `${plural(llmCostFromTokens.length, 'LLM task')} costed from the model's price per 1k tokens (${DEFAULT_LLM_TOKENS.toLocaleString('en')} tokens where no estimate is given): ${listTasks(llmCostFromTokens)}`,
    );
  }
  if (unreadTasks) {
    const more = unreadTasks > LISTED ? ` and ${plural(unreadTasks - LISTED, 'more task')}` : '';
    assumptions.push(`estimate_data not used by the dry run (it reads latency_ms, cost_usd and tokens as non-negative numbers): ${unread.join('; ')}${more}`);
  }
  return { durations, costs, types, costUnknown, assumptions, findings };
}
