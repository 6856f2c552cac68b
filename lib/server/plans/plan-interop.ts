import 'server-only';
import { FormatError, FORMAT_IDS, type FormatId } from '@/lib/formats/format';
import { importPlan } from '@/lib/formats/import-plan';
import { formatById } from '@/lib/formats/registry';
import { PLAN_LIMITS, formatBytes } from '@/lib/plan';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import type { Database } from '../db/client';
import { AppError } from '../errors';
import { createPlan, getPlan } from './plan-service';

// Import and export go through the same services as every other plan write and read.

function asAppError(error: unknown): never {
  if (error instanceof FormatError) {
    throw new AppError('bad_request', 400, `Could not import as ${error.format === 'unknown' ? 'a plan' : error.format}: ${error.location ? `${error.location}: ` : ''}${error.detail}`, [
      { path: error.location || '(file)', message: error.detail },
    ], { format: error.format });
  }
  throw error;
}

export async function importPlanText(db: Database, input: { content: string; format?: FormatId; title?: string }, actor: string) {
  const bytes = new TextEncoder().encode(input.content).length;
  if (bytes > PLAN_LIMITS.maxPlanBytes) {
    throw new AppError('payload_too_large', 413, `The file is ${formatBytes(bytes)}; the limit is ${formatBytes(PLAN_LIMITS.maxPlanBytes)}`);
  }
  let imported;
  try {
    imported = importPlan(input.content, input.format);
  } catch (error) {
    asAppError(error);
  }
  // Parsing a large file takes a while; let other requests in before storing it.
  await yieldToEventLoop();
  const { document, format } = imported;
  const title = input.title?.trim() || imported.title || `Imported ${format.label} plan`;
  const created = await createPlan(
    db,
    { title: title.slice(0, 200), plan: document.plan, job: document.job, view: document.view, message: `Imported from ${format.label}` },
    actor,
  );
  return { id: created.id, revision: created.revision, content_hash: created.content_hash, format: format.id };
}

export async function exportPlan(db: Database, id: string, formatId: string, revision?: number) {
  if (!(FORMAT_IDS as readonly string[]).includes(formatId)) {
    throw new AppError('bad_request', 400, `Unknown export format "${formatId}"; use one of ${FORMAT_IDS.join(', ')}`);
  }
  const format = formatById(formatId as FormatId);
  const plan = await getPlan(db, id, revision);
  let serialized;
  try {
    serialized = format.serialize({ plan: plan.plan, job: plan.job, subgraphs: plan.subgraphs });
  } catch (error) {
    // A draft may hold what a format cannot express at all (a cycle has no step order).
    if (error instanceof FormatError) {
      throw new AppError('unprocessable', 422, `Revision ${plan.revision} cannot be exported as ${format.id}: ${error.location ? `${error.location}: ` : ''}${error.detail}`);
    }
    throw error;
  }
  const { text, dropped } = serialized;
  const slug = plan.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'plan';
  return { text, dropped, mediaType: format.mediaType, filename: `${slug}-r${plan.revision}.${format.id}.${format.extension}` };
}
