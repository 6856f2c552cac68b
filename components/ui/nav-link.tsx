'use client';

import Link from 'next/link';
import type { ComponentProps } from 'react';
import { usePrefetchHeld } from './prefetch-hold';

/**
 * A link of the app's navigation (the header, a plan's header): next/link, whose prefetch
 * (of the page it leads to, as it comes into view) waits while the page holds it (./prefetch-hold).
 */
export function NavLink({ prefetch, ...props }: ComponentProps<typeof Link>) {
  const held = usePrefetchHeld();
  return <Link {...props} prefetch={held ? false : prefetch} />;
}
