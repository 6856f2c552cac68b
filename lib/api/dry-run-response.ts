import type { DryRunResult } from '@/lib/simulate/dry-run';

// A stored dry run as the API, the server actions and the dry-run pages see it. It lives
// with the API so components can name it without importing a server module.

/** A dry run without its task list: what a comparison with the previous run needs. */
export type DryRunSummary = Omit<DryRunResult, 'tasks'>;

export interface StoredDryRun {
  id: number;
  revision: number;
  content_hash: string;
  created_by: string;
  created_at: string;
  result: DryRunResult;
  /** The plan's dry run before this one (any revision), for comparison. */
  previous: (Pick<StoredDryRun, 'id' | 'revision' | 'created_at'> & { summary: DryRunSummary }) | null;
}
