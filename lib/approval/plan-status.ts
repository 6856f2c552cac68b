import { z } from 'zod';

/** Where a plan stands at the approval gate (docs/access.md, four-eyes). */
export const PlanStatus = z.enum(['draft', 'in_review', 'approved', 'changes_requested', 'rejected']);
export type PlanStatus = z.infer<typeof PlanStatus>;
