import { headers } from 'next/headers';
import { planRevisionUrl } from '@/components/editor/plan-revision-query';
import { OVERVIEW_TASKS } from '@/lib/flow/overview';
import { currentUser } from '@/lib/server/auth/page-auth';
import { loadPlanSkeletonForPage } from '../load-plan';

/**
 * The editor page's segment. A big plan's page carries only a preview; the editor then reads
 * the revision's tasks from the API. Named here, as a `<link rel="preload">` that React hoists
 * into the HTML's head, that request starts as the HTML arrives and overlaps the page's
 * scripts. react-dom's `preload()` does not do it: its hint reaches the browser only inside the
 * RSC payload, read once the scripts ran.
 *
 * The segment has no loading skeleton: React reveals a streamed page no sooner than 300 ms
 * after the skeleton's first frame, which held a big plan's first picture back that long. A
 * link to the page shows that it is pending instead (components/ui/link.tsx).
 *
 * Only in the HTML of a page load: a client navigation's or refresh's RSC payload would add the
 * link to a page whose editor already holds its tasks (a refresh after a save names the new
 * revision, which that editor never reads). Signed-out visitors get no link: the page sends
 * them to sign-in.
 */
export default async function EditorLayout({ children, params }: LayoutProps<'/plans/[id]'>) {
  const { id } = await params;
  // Next marks its RSC requests (navigations, refreshes, prefetches) with this header.
  const documentLoad = !(await headers()).has('rsc');
  const skeleton = documentLoad && (await currentUser()) ? await loadPlanSkeletonForPage(id) : null;
  return (
    <>
      {skeleton && skeleton.taskIds.length > OVERVIEW_TASKS && (
        // Same URL, mode and credentials as the editor's own request (planRevisionQuery), so that request is answered from it.
        <link rel="preload" as="fetch" href={planRevisionUrl(skeleton.plan.id, skeleton.plan.revision)} crossOrigin="anonymous" />
      )}
      {children}
    </>
  );
}
