'use client';

import { createContext, useContext, useSyncExternalStore } from 'react';

// Thousands of nodes each show their task's open-comment count. Each subscribes to this
// tiny store and re-renders only when its own number changes, not on every comment.

export interface CountStore {
  get(taskId: string): number;
  set(counts: Map<string, number>): void;
  subscribe(listener: () => void): () => void;
}

export function createCountStore(): CountStore {
  let counts = new Map<string, number>();
  const listeners = new Set<() => void>();
  return {
    get: (taskId) => counts.get(taskId) ?? 0,
    set(next) {
      counts = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const CountStoreContext = createContext<CountStore | null>(null);

const NONE = () => () => {};
const ZERO = () => 0;

/** The task's open threads; 0 where no comments are shown (no provider above). */
export function useOpenCommentCount(taskId: string): number {
  const store = useContext(CountStoreContext);
  return useSyncExternalStore(
    store ? store.subscribe : NONE,
    store ? () => store.get(taskId) : ZERO,
    ZERO,
  );
}
