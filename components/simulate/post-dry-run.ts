import { resultOf, type ActionResult } from '@/lib/api/action-result';
import type { StoredDryRun } from '@/lib/api/operation-schemas';
import type { DryRunOptions } from '@/lib/simulate/dry-run';

/**
 * Runs a dry run of the plan's head through the REST API (POST /api/plans/{id}/simulate), answered
 * as a server action's result so the form shows its refusals the same way. The API sends the
 * stored tasks' text as it was stored; a server action wrote the 20,000 tasks of a big plan's
 * answer as one value on the server's thread, which held every other request meanwhile.
 */
export async function postDryRun({ id, options }: { id: string; options: DryRunOptions }): Promise<ActionResult<StoredDryRun>> {
  const response = await fetch(`/api/plans/${encodeURIComponent(id)}/simulate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(options),
  });
  return resultOf<StoredDryRun>(response, 'The dry run could not be made');
}
