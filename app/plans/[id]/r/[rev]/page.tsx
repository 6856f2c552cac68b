import { requirePageUser } from '@/lib/server/auth/page-auth';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlanEditor } from '@/components/editor/plan-editor';
import { documentOf, revisionFromText } from '@/lib/api/schemas';
import { loadPlanForPage, loadRegistryForPage } from '../../load-plan';
import { PlanHeader } from '../../plan-header';

type Props = PageProps<'/plans/[id]/r/[rev]'>;

function revisionOf(rev: string): number {
  return revisionFromText(rev) ?? notFound();
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { id, rev } = await params;
  // Checked here too, with the whole link: metadata can be resolved before the page.
  await requirePageUser(`/plans/${encodeURIComponent(id)}/r/${encodeURIComponent(rev)}`, searchParams);
  const plan = await loadPlanForPage(id, revisionOf(rev));
  return { title: `${plan.title} · revision ${plan.revision}` };
}

/** An immutable revision: the same editor, read-only, at a link that never changes. */
export default async function RevisionPage({ params, searchParams }: Props) {
  const { id, rev } = await params;
  // Before the revision is loaded: sign-in returns to this link with its query (?task=, ?view=).
  const user = await requirePageUser(`/plans/${encodeURIComponent(id)}/r/${encodeURIComponent(rev)}`, searchParams);
  const plan = await loadPlanForPage(id, revisionOf(rev));
  const doc = documentOf(plan);
  const registry = await loadRegistryForPage();
  return (
    <div className="flex h-full flex-col">
      <PlanHeader plan={plan} readOnly user={user} />
      <div className="min-h-0 flex-1">
        <PlanEditor planId={plan.id} revision={plan.revision} doc={doc} readOnly registry={registry} />
      </div>
    </div>
  );
}
