import { requirePageUser } from '@/lib/server/auth/page-auth';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlanEditor } from '@/components/editor/plan-editor';
import { getRegistry } from '@/lib/server/registry/registry-service';
import { getDatabase } from '@/lib/server/db/connection';
import { documentOf, revisionFromText } from '@/lib/api/schemas';
import { loadPlanForPage } from '../../load-plan';
import { PlanHeader } from '../../plan-header';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string; rev: string }> };

function revisionOf(rev: string): number {
  return revisionFromText(rev) ?? notFound();
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id, rev } = await params;
  const plan = await loadPlanForPage(id, revisionOf(rev));
  return { title: `${plan.title} · revision ${plan.revision}` };
}

/** An immutable revision: the same editor, read-only, at a link that never changes. */
export default async function RevisionPage({ params }: Props) {
  const { id, rev } = await params;
  const plan = await loadPlanForPage(id, revisionOf(rev));
  const user = await requirePageUser(`/plans/${plan.id}/r/${plan.revision}`);
  const doc = documentOf(plan);
  const registry = await getRegistry((await getDatabase()).db);
  return (
    <div className="flex h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="min-h-0 flex-1">
        <PlanEditor planId={plan.id} revision={plan.revision} doc={doc} readOnly registry={registry} />
      </div>
    </div>
  );
}
