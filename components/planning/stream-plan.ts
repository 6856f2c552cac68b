import type { BackendId, PlannedBy, Stage1InputRaw } from '@/lib/planning/planning-types';
import { readNdjson } from './read-ndjson';

export type GenerateBody = Stage1InputRaw & { backend?: BackendId };

export interface PlanCreated {
  id: string;
  revision: number;
  content_hash: string;
  planned_by: PlannedBy & { label?: string; notes?: string[] };
}

export type PlanOutcome = { ok: true; plan: PlanCreated } | { ok: false; message: string };

type Line = { type: 'progress'; message: string } | ({ type: 'done' } & PlanCreated) | { type: 'error'; error: { code: string; message: string } };

/**
 * POST /api/plans/generate asking for NDJSON, reporting each progress line as it arrives.
 * Errors come back as a message to show, whether the route refused before streaming (a
 * JSON error with a 4xx status) or the planner failed while streaming.
 */
export async function streamPlan(body: GenerateBody, onProgress: (message: string) => void): Promise<PlanOutcome> {
  let response: Response;
  try {
    response = await fetch('/api/plans/generate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: 'Could not reach the server.' };
  }
  if (!response.ok || !response.body) return { ok: false, message: await errorMessage(response) };
  try {
    for await (const value of readNdjson(response.body)) {
      const line = value as Line;
      if (line.type === 'progress') onProgress(line.message);
      else if (line.type === 'done') return { ok: true, plan: line };
      else if (line.type === 'error') return { ok: false, message: line.error.message };
    }
  } catch {
    return { ok: false, message: 'The connection broke, or the server sent an answer Plangate could not read.' };
  }
  return { ok: false, message: 'The planner stopped without creating a plan.' };
}

async function errorMessage(response: Response): Promise<string> {
  if (response.status === 401) return 'Your session has ended. Sign in again, then retry.';
  try {
    const payload = (await response.json()) as { error?: { message?: string } };
    if (payload.error?.message) return payload.error.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return `The server refused the request (HTTP ${response.status}).`;
}
