import { z } from 'zod';
import { buildGraphIndex, topologicalOrder } from '@/lib/graph';
import { optimizeSubgraphs } from '@/lib/optimize/rule-based-optimizer';
import { estimateTasks } from '@/lib/simulate/task-estimates';
import type { Database } from '../db/client';
import { AppError, fromZodError } from '../errors';
import { getPlan } from '../plans/plan-service';
import { getRegistry } from '../registry/registry-service';

// Proposes a grouping of the head revision into SubGraphs; nothing is stored. A client
// that wants it saves the plan with these `subgraphs` (a new revision, so a new review).

export const OptimizeRequest = z.strictObject({
  strategy: z.enum(['rule', 'llm']).default('rule'),
  workers: z.number().int().min(1).max(10_000).default(4),
});

export async function proposeSubgraphs(db: Database, id: string, raw: unknown) {
  const parsed = OptimizeRequest.safeParse(raw);
  if (!parsed.success) throw fromZodError(parsed.error, 'request body');
  if (parsed.data.strategy === 'llm') {
    throw new AppError('bad_request', 400, 'The LLM optimiser is not available yet; use strategy "rule"');
  }
  const plan = await getPlan(db, id);
  const tasks = plan.plan.planned_tasks;
  const index = buildGraphIndex(tasks);
  if (!topologicalOrder(index) || index.missing.length || index.duplicates.length) {
    throw new AppError('unprocessable', 422, 'The plan has a cycle, a missing dependency or a repeated task id; fix the validation errors before grouping it');
  }
  const { durations } = estimateTasks(tasks, await getRegistry(db));
  const { subgraphs, report } = optimizeSubgraphs(tasks, index, durations, parsed.data.workers);
  return { revision: plan.revision, content_hash: plan.content_hash, subgraphs, report };
}
