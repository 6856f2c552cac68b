import 'server-only';
import { OptimizeRequest } from '@/lib/api/request-schemas';
import { buildGraphIndex } from '@/lib/graph';
import type { OptimizeRuleJob } from '@/lib/compute/jobs';
import { groupingRefusal } from '@/lib/optimize/groupable';
import { llmConfigFromEnv, type LlmConfig } from '@/lib/llm/llm-config';
import type { OptimizeReport } from '@/lib/optimize/grouping-report';
import { optimizeWithLlm } from '@/lib/optimize/llm-optimizer';
import type { OptimizeResult } from '@/lib/optimize/rule-based-optimizer';
import type { PlannerTask, SubGraph } from '@/lib/plan';
import { estimateTasks } from '@/lib/simulate/task-estimates';
import type { Database } from '../platform/db/client';
import { AppError, fromZodError } from '../platform/errors';
import { plannerFailed } from '../planning/planning-service';
import { getPlan, getRevisionText } from '../plans/plan-service';
import { runComputeJob } from '../platform/compute/compute-pool';
import { getRegistry } from '../registry/registry-service';

// Proposes a grouping into SubGraphs, of the tasks the editor holds (unsaved edits
// included) or of the head revision (the API); nothing is stored. A client that wants
// it saves the plan with these `subgraphs` (a new revision, so a new review).

export { OptimizeRequest };

/** The model's part in an answer to strategy 'llm'. */
export interface LlmGroupingOutcome {
  accepted: boolean;
  /** Why the model's grouping was rejected; null when accepted. */
  reason: string | null;
  model: string;
  /** The rejected grouping (normalised, depends_on derived); null when accepted, as it is then `subgraphs`. */
  proposed: SubGraph[] | null;
}

export interface OptimizeResponse {
  /** Which optimiser made `subgraphs`: 'rule' also when the model's grouping was rejected. */
  strategy: 'rule' | 'llm';
  /** The grouping to apply, with its dry-run report. */
  subgraphs: SubGraph[];
  report: OptimizeReport;
  /** Present when the model was asked. */
  llm?: LlmGroupingOutcome;
}

/** A plan's whole task list goes into the prompt and its every id comes back in the answer. */
export const MAX_LLM_OPTIMIZE_TASKS = 1_000;

type Env = Record<string, string | undefined>;

function optimiserConfig(env: Env): LlmConfig {
  let config: LlmConfig | null;
  try {
    config = llmConfigFromEnv(env);
  } catch (error) {
    throw new AppError('unavailable', 503, `The LLM optimiser is misconfigured: ${(error as Error).message}`);
  }
  if (!config) {
    throw new AppError('bad_request', 400, 'The LLM optimiser is not configured: set LLM_BASE_URL and LLM_MODEL (an OpenAI-compatible endpoint), or use strategy "rule"');
  }
  return config;
}

/** The rule-based grouping, in a compute worker (lib/compute/jobs.ts optimizeRule): a DAG's grouping or a 422. */
async function ruleGrouping(db: Database, source: Pick<OptimizeRuleJob, 'tasks' | 'revision'>, workers: number): Promise<OptimizeResult> {
  return runComputeJob('optimizeRule', { ...source, registry: await getRegistry(db), workers });
}

/** Groups `tasks`, which must form a DAG (else 422), by the requested strategy. */
export async function proposeGrouping(db: Database, tasks: PlannerTask[], request: OptimizeRequest, env: Env = process.env): Promise<OptimizeResponse> {
  const config = request.strategy === 'llm' ? optimiserConfig(env) : null;
  const { workers } = request;
  if (!config) return { strategy: 'rule', ...(await ruleGrouping(db, { tasks }, workers)) };

  // The model's path is bounded by MAX_LLM_OPTIMIZE_TASKS, so its checks stay on this thread.
  const index = buildGraphIndex(tasks);
  const refusal = groupingRefusal(index);
  if (refusal) throw new AppError('unprocessable', 422, refusal);
  if (tasks.length > MAX_LLM_OPTIMIZE_TASKS) {
    throw new AppError(
      'unprocessable',
      422,
      `The LLM optimiser takes plans of at most ${MAX_LLM_OPTIMIZE_TASKS.toLocaleString('en')} tasks and this one has ${tasks.length.toLocaleString('en')}; use strategy "rule"`,
    );
  }
  const registry = await getRegistry(db);
  const { durations } = estimateTasks(tasks, registry);
  const { model } = config;
  const optimiser = { label: `LLM optimiser: ${model} at ${new URL(config.baseURL).host}`, backend: 'llm' as const, model };
  const result = await optimizeWithLlm({ config, tasks, index, durations, workers }).catch((error: unknown) => {
    throw plannerFailed(optimiser, error);
  });
  if (result.accepted) {
    return { strategy: 'llm', subgraphs: result.subgraphs, report: result.report, llm: { accepted: true, reason: null, model, proposed: null } };
  }
  const rule = await ruleGrouping(db, { tasks }, workers);
  return {
    strategy: 'rule',
    subgraphs: rule.subgraphs,
    report: { ...rule.report, reasons: [`The model's grouping was rejected (${result.reason}); this is the rule-based grouping instead`, ...rule.report.reasons] },
    llm: { accepted: false, reason: result.reason, model, proposed: result.proposed },
  };
}

/** Groups the head revision of plan `id`; the answer names the revision it is for. */
export async function proposeSubgraphs(db: Database, id: string, raw: unknown, env: Env = process.env) {
  const parsed = OptimizeRequest.safeParse(raw);
  if (!parsed.success) throw fromZodError(parsed.error, 'request body');
  if (parsed.data.strategy === 'rule') {
    // The revision is read as text and parsed in the worker, like a dry run's.
    const revision = await getRevisionText(db, id);
    const grouping = await ruleGrouping(db, { revision }, parsed.data.workers);
    return { revision: revision.revision, content_hash: revision.contentHash, strategy: 'rule' as const, ...grouping };
  }
  const plan = await getPlan(db, id);
  const proposal = await proposeGrouping(db, plan.plan.planned_tasks, parsed.data, env);
  return { revision: plan.revision, content_hash: plan.content_hash, ...proposal };
}
