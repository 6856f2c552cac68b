import { z } from 'zod';
import { BACKEND_IDS, Stage1Input } from '@/lib/planning/planning-types';

// Request bodies of the planning and optimising operations. They live beside the other API
// schemas (not in the services) so the route table, and the clients and tests that read
// it, never import server code.

export const GenerateRequest = Stage1Input.extend({ backend: z.enum(BACKEND_IDS).optional() });
export type GenerateRequest = z.infer<typeof GenerateRequest>;

export const Stage2Request = z.strictObject({
  task_ids: z.array(z.string().min(1)).min(1, 'Name at least one task').max(200),
  input_data: z.record(z.string(), z.unknown()).optional(),
  base_revision: z.number().int().min(1).optional(),
  backend: z.enum(BACKEND_IDS).optional(),
});
export type Stage2Request = z.infer<typeof Stage2Request>;

export const OptimizeRequest = z.strictObject({
  strategy: z.enum(['rule', 'llm']).default('rule'),
  workers: z.number().int().min(1).max(10_000).default(4),
});
export type OptimizeRequest = z.infer<typeof OptimizeRequest>;
