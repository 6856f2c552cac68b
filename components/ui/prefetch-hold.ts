import { useSyncExternalStore } from 'react';

// Navigation links (./nav-link) prefetch the pages they lead to, and each prefetch is a server
// render on the machine the page is still loading from. A page whose first seconds matter (the
// plan editor, until every task is editable) holds those prefetches back until it is ready.

let holds = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Holds link prefetching until the returned release is called (again: no effect). */
export function holdPrefetch(): () => void {
  holds += 1;
  notify();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds -= 1;
    notify();
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * Whether links should not prefetch now. Held while the page hydrates (the server's answer):
 * React compares with the hold's state when it subscribes, after the page's layout effects,
 * where a page takes its hold, so no link starts prefetching in the moment before it.
 */
export function usePrefetchHeld(): boolean {
  return useSyncExternalStore(subscribe, () => holds > 0, () => true);
}
