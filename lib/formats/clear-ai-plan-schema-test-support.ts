import { z } from 'zod';

// clear-ai-v2's PlanSchema (seed 001's planner; src/shared/validation/schemas.ts upstream),
// written from its specification: what its PlannerAgent's validatePlan accepts. The
// planner-agent export must pass it, so a plan Plangate writes loads in the seed's code.

const PlanStepSchema = z.object({
  tool: z.string().min(1),
  params: z.record(z.string(), z.any()),
  depends_on: z.array(z.number()).optional(),
  parallel: z.boolean().optional(),
});

const PlanMetadataSchema = z.object({
  query: z.string(),
  timestamp: z.string(),
  estimated_duration_ms: z.number().optional(),
});

export const ClearAiPlanSchema = z.object({
  steps: z.array(PlanStepSchema).nonempty(),
  metadata: PlanMetadataSchema.optional(),
});
