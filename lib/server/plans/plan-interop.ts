import 'server-only';
import { FORMAT_IDS, type FormatId } from '@/lib/formats/format';
import { formatById } from '@/lib/formats/registry';
import { PLAN_LIMITS, formatBytes } from '@/lib/plan';
import { yieldToEventLoop } from '@/lib/async/yield-to-event-loop';
import type { Database } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { getRevisionText, storeNewPlan } from './plan-service';
import { runComputeJob } from '../platform/compute/compute-pool';

// Import and export go through the same services as every other plan write and read.

export async function importPlanText(db: Database, input: { content: string; format?: FormatId; title?: string }, actor: string) {
  const bytes = new TextEncoder().encode(input.content).length;
  if (bytes > PLAN_LIMITS.maxPlanBytes) {
    throw new AppError('payload_too_large', 413, `The file is ${formatBytes(bytes)}; the limit is ${formatBytes(PLAN_LIMITS.maxPlanBytes)}`);
  }
  // Reading a large file and completing its tasks takes seconds: a compute worker does it.
  const imported = await runComputeJob('importPlan', { content: input.content, format: input.format });
  await yieldToEventLoop();
  const title = input.title?.trim() || imported.title || `Imported ${imported.formatLabel} plan`;
  const created = await storeNewPlan(db, imported.document, title.slice(0, 200), `Imported from ${imported.formatLabel}`, actor);
  return { id: created.id, revision: created.revision, content_hash: created.content_hash, format: imported.formatId };
}

/** A revision in an export format; the serialising runs in a compute worker (lib/compute/jobs.ts exportRevision). */
export async function exportPlan(db: Database, id: string, formatId: string, revision?: number) {
  if (!(FORMAT_IDS as readonly string[]).includes(formatId)) {
    throw new AppError('bad_request', 400, `Unknown export format "${formatId}"; use one of ${FORMAT_IDS.join(', ')}`);
  }
  const format = formatById(formatId as FormatId);
  const stored = await getRevisionText(db, id, revision);
  const { text, dropped } = await runComputeJob('exportRevision', { revision: stored, formatId: format.id });
  const slug = stored.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'plan';
  return { text, dropped, mediaType: format.mediaType, filename: `${slug}-r${stored.revision}.${format.id}.${format.extension}` };
}
