import { registryNotice } from '@/lib/server/approval/registry-binding';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { loadRegistryForPage } from './load-plan';

/** Says why a plan whose content was approved is back in draft: the registry changed under it. */
export async function RegistryNotice({ planId }: { planId: string }) {
  const { db } = await getDatabase();
  const notice = await registryNotice(db, planId, await loadRegistryForPage());
  if (!notice) return null;
  const named = notice.changes.map((c) => `${c.kind}/${c.key} (${c.change})`).join(', ');
  return (
    <p role="status" className="w-full rounded-md bg-amber-50 px-3 py-1.5 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
      The approval of revision {notice.approvedRevision} is stale: registry resources it routes to changed ({named || 'see the review'}). It
      needs a new review.
    </p>
  );
}
