/**
 * Rewrites the address bar's query in place (no navigation, no history entry) to name what
 * the page shows (the selected task, the viewport, dry-run settings), so a copied or reloaded
 * link opens it.
 *
 * Through Next's router, not around it: the history state is left for Next to fill in, so the
 * router takes the new address as its own (`useSearchParams` follows). Written with Next's own
 * history state, the router never learned of it and put its own address back whenever it
 * rendered again (a refresh for a status change, a server action): the address then named the
 * task the page had opened with, not the one selected, and lost the viewport.
 */
export function replaceQuery(update: (params: URLSearchParams) => void): void {
  const url = new URL(window.location.href);
  update(url.searchParams);
  if (url.href !== window.location.href) window.history.replaceState(null, '', url);
}
