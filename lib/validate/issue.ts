import { z } from 'zod';
import { RESOURCE_KINDS } from '@/lib/registry';

export const ISSUE_CODES = [
  'empty_plan',
  'duplicate_task_id',
  'missing_dependency',
  'self_dependency',
  'cycle',
  'missing_execution_type',
  'unknown_execution_type',
  'missing_target',
  'redundant_dependency',
  'isolated_task',
  'unknown_target',
  'target_type_mismatch',
  'missing_parameter',
  'invalid_parameter',
  'unknown_parameter',
  /** A tool schema stored before the complexity budget and over it: its parameters go unchecked. */
  'schema_over_budget',
  'unresolved_reference',
  'reference_not_upstream',
  'subgraph_duplicate_id',
  'subgraph_unknown_task',
  'subgraph_coverage',
  'subgraph_empty',
  'subgraph_depends_on',
  'subgraph_cycle',
  'invisible_characters',
  /** The last issue of a capped result: how many more there were (lib/validate/issue-caps). */
  'issues_truncated',
] as const;

export const ValidationIssue = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.enum(ISSUE_CODES),
  message: z.string(),
  task_ids: z.array(z.string()),
  /** The registry resource the issue is about, where it names one (an unknown target): issues are grouped by it, and an editor can add it. */
  target: z.strictObject({ kind: z.enum(RESOURCE_KINDS), id: z.string() }).optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;
export type Severity = ValidationIssue['severity'];
export type IssueCode = ValidationIssue['code'];

export const ValidationResult = z.object({
  /** True when there is no error; warnings never block. */
  valid: z.boolean(),
  issues: z.array(ValidationIssue),
});
export type ValidationResult = z.infer<typeof ValidationResult>;
