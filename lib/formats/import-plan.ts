import { formatPath, PLAN_LIMITS, PlanDocument, formatBytes } from '@/lib/plan';
import { validatePlan } from '@/lib/validate';
import { FormatError, type FormatId, type PlanFormat } from './format';
import { FORMATS, detectFormat, formatById } from './registry';

export interface ImportedPlan {
  format: PlanFormat;
  document: PlanDocument;
  title: string | undefined;
}

// Structural problems make an import meaningless (a cycle never runs, a dangling edge
// names nothing), so unlike a save they refuse the import instead of storing a draft.
const BLOCKING = new Set(['cycle', 'missing_dependency', 'duplicate_task_id', 'self_dependency']);

/** Reads a plan in any supported format (detected when not given) into a plan document. */
export function importPlan(text: string, formatId?: FormatId): ImportedPlan {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > PLAN_LIMITS.maxPlanBytes) {
    throw new FormatError(formatId ?? 'unknown', '', `the file is ${formatBytes(bytes)}; the limit is ${formatBytes(PLAN_LIMITS.maxPlanBytes)}`);
  }
  if (!text.trim()) throw new FormatError(formatId ?? 'unknown', '', 'the file is empty');
  const format = formatId ? formatById(formatId) : detectFormat(text);
  if (!format) {
    throw new FormatError('unknown', '', `this is not a plan in any supported format (tried ${FORMATS.map((f) => f.id).join(', ')})`);
  }
  let parsed;
  try {
    parsed = format.parse(text);
  } catch (error) {
    // Adapters walk values recursively; a pathologically nested file must still be a clean refusal.
    if (error instanceof RangeError) throw new FormatError(format.id, '', 'the file is nested too deeply to read');
    throw error;
  }
  // A plan with no tasks is a plan (POST /api/plans takes one too): validation warns about it.
  const document = PlanDocument.safeParse({ plan: parsed.plan, job: parsed.job, view: { positions: parsed.positions ?? {} } });
  if (!document.success) {
    const issue = document.error.issues[0];
    throw new FormatError(format.id, formatPath(issue.path), issue.message);
  }
  const blocking = validatePlan(document.data.plan).issues.find((i) => BLOCKING.has(i.code));
  if (blocking) throw new FormatError(format.id, '', blocking.message);
  return { format, document: document.data, title: parsed.title };
}
