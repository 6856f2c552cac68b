import { notFound } from 'next/navigation';
import { revisionFromText } from '@/lib/api/schemas';
import { currentUser } from '@/lib/server/auth/page-auth';
import { loadPlanSkeletonForPage } from '../../load-plan';

/**
 * Runs before this segment's loading skeleton starts the response, while the HTTP status can
 * still change: a link to a revision that does not exist answers 404, not a 200 carrying a
 * not-found page (the plan's own layout does the same for the plan). Signed-out visitors go
 * on to the page, which sends them to sign-in with the link's whole query.
 */
export default async function RevisionLayout({ children, params }: LayoutProps<'/plans/[id]/r/[rev]'>) {
  const { id, rev } = await params;
  if (await currentUser()) await loadPlanSkeletonForPage(id, revisionFromText(rev) ?? notFound());
  return children;
}
