import { currentUser } from '@/lib/server/auth/page-auth';
import { loadPlanSkeletonForPage } from './load-plan';

/**
 * Runs before the loading.tsx skeletons below it start the response, when the HTTP status
 * can still change: a link to a plan that does not exist answers 404, not a 200 carrying a
 * not-found page. It reads the plan without its tasks (cheap at any size), cached for the
 * request, so the editor page and the metadata reuse it. Signed-out
 * visitors go on to the page, which sends them to sign-in with the link's whole query (a
 * layout is not given the query).
 */
export default async function PlanLayout({ children, params }: LayoutProps<'/plans/[id]'>) {
  const { id } = await params;
  if (await currentUser()) await loadPlanSkeletonForPage(id);
  return children;
}
