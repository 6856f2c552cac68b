import { notFound } from 'next/navigation';
import { getDatabase } from '@/lib/server/db/connection';
import { AppError } from '@/lib/server/errors';
import { getPlan } from '@/lib/server/plans/plan-service';

/** The plan for a page, or the not-found page for an id or revision that does not exist. */
export async function loadPlanForPage(id: string, revision?: number) {
  const { db } = await getDatabase();
  try {
    return await getPlan(db, id, revision);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
}
