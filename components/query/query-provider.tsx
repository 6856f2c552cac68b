'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';

/** The client's data layer: one QueryClient per browser tab, kept across navigations. */
export function QueryProvider({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Server state here is small and shared between people: refetch on focus, but do
          // not retry a refused request (a 403 stays a 403).
          queries: { staleTime: 2_000, retry: false, refetchOnWindowFocus: true },
          mutations: { retry: false },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
