'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in the server's HTML and while React hydrates it; true once React has taken over the
 * page. A control drawn from the server's HTML is there before its handler is: one that stays
 * disabled until then is not clicked in vain (a click before hydration does nothing).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
