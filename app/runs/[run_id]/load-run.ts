import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDatabase } from '@/lib/server/platform/db/connection';
import { AppError } from '@/lib/server/platform/errors';
import { getRun } from '@/lib/server/runs/run-queries';

/** The run for the page and its title, or the not-found page; read once per request. */
export const loadRunForPage = cache(async (runId: string) => {
  const { db } = await getDatabase();
  try {
    return await getRun(db, runId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
});
