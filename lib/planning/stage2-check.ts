import { schemaChecker } from '@/lib/registry/schema-checker';
import { executionKind, executionTypeDescriptor, type PlannerTask } from '@/lib/plan';
import { resourceKey, type JsonSchemaObject, type Registry, type Resource } from '@/lib/registry';
import type { PlanningBackend, Stage2Result } from './planning-types';

/** The registry resources a task of this execution type may be executed by, with their input schemas. */
export function candidatesFor(task: PlannerTask, registry: Registry): Map<string, JsonSchemaObject | undefined> {
  const kinds = executionTypeDescriptor(executionKind(task))?.registryKinds ?? [];
  const resources = kinds.flatMap((kind): Resource[] => registry[kind]);
  return new Map(resources.map((resource) => [resourceKey(resource), 'input_schema' in resource ? resource.input_schema : undefined]));
}

/** What is wrong with a Stage 2 answer for this task: an unknown uid, or input_data its schema refuses. */
export function stage2Problems(task: PlannerTask, result: Stage2Result, registry: Registry): string[] {
  const candidates = candidatesFor(task, registry);
  if (!candidates.has(result.uid)) {
    const known = [...candidates.keys()];
    return [`"${result.uid}" is not a registered ${executionKind(task)} resource${known.length ? `; known: ${known.slice(0, 20).join(', ')}` : ''}`];
  }
  const schema = candidates.get(result.uid);
  if (!schema) return [];
  const parsed = schemaChecker(schema)?.safeParse(result.input_data);
  return !parsed || parsed.success ? [] : parsed.error.issues.slice(0, 10).map((issue) => `input_data${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`);
}

/** Runs a backend's Stage 2 and refuses an answer the registry does not accept, whichever backend gave it. */
export async function checkedStage2(backend: PlanningBackend, task: PlannerTask, inputData: Record<string, unknown>, registry: Registry): Promise<Stage2Result> {
  const result = await backend.stage2(task, inputData, registry);
  const problems = stage2Problems(task, result, registry);
  if (problems.length) throw new Error(`unusable Stage 2 answer for "${task.task_id}": ${problems.join('; ')}`);
  return result;
}
