import { notFound } from 'next/navigation';
import { cache } from 'react';
import { requirePageUser } from '@/lib/server/auth/page-auth';
import type { Database } from '@/lib/server/platform/db/client';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { AppError } from '@/lib/server/platform/errors';
import { getPlan, getPlanSkeleton } from '@/lib/server/plans/plan-service';
import { getRegistry } from '@/lib/server/registry/registry-service';

/**
 * The plan for a page, or the not-found page for an id or revision that does not exist.
 * Signed-in users only: this is also what page metadata (the title) reads. Cached per
 * request: the segment's layout, generateMetadata and the page ask for the same plan, one
 * read answers them all (the result is shared, so callers never mutate it).
 */
export const loadPlanForPage = cache(async (id: string, revision?: number) => readForPage(id, revision, getPlan));

/**
 * The plan without its tasks, and their ids: what the segment's layout, the metadata and the
 * header need. Cheap at any plan size, so a big plan's page can start before its tasks are read.
 */
export const loadPlanSkeletonForPage = cache(async (id: string, revision?: number) => readForPage(id, revision, getPlanSkeleton));

async function readForPage<T>(id: string, revision: number | undefined, read: (db: Database, id: string, revision?: number) => Promise<T>): Promise<T> {
  // Pages and their metadata check first, with their whole link (path and query); this is a fallback.
  await requirePageUser(`/plans/${encodeURIComponent(id)}${revision ? `/r/${revision}` : ''}`);
  const { db } = await getDatabase();
  try {
    return await read(db, id, revision);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
}

/** The registry, read once per request: a plan page and its header's registry notice both need it. */
export const loadRegistryForPage = cache(async () => getRegistry((await getDatabase()).db));
