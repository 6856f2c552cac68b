export type Severity = 'error' | 'warning';

export type IssueCode =
  | 'empty_plan'
  | 'duplicate_task_id'
  | 'missing_dependency'
  | 'self_dependency'
  | 'cycle'
  | 'missing_execution_type'
  | 'unknown_execution_type'
  | 'redundant_dependency'
  | 'isolated_task';

export interface ValidationIssue {
  severity: Severity;
  code: IssueCode;
  message: string;
  task_ids: string[];
}

export interface ValidationResult {
  /** True when there is no error; warnings never block. */
  valid: boolean;
  issues: ValidationIssue[];
}
