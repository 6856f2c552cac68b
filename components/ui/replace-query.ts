/**
 * Rewrites the address bar's query in place (no navigation, no history entry) to name what
 * the page shows (the selected task, the viewport, dry-run settings), so a copied or reloaded
 * link opens it.
 *
 * Written with Next's own history state, so the router does not treat it as a navigation of
 * its own. Through the router (a null state, as Next documents for syncing `useSearchParams`)
 * each rewrite became a router transition followed by a deferred history write of Next's own:
 * that write could land after the user had left the page (a navigation under way was then
 * interrupted), and the editor's undo history did not survive a save's refresh. The cost, left
 * open: a later router render (a status refresh) can put back the address the page opened with.
 */
export function replaceQuery(update: (params: URLSearchParams) => void): void {
  const url = new URL(window.location.href);
  update(url.searchParams);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
}
