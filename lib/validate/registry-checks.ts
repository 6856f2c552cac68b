import { ancestors, type GraphIndex } from '@/lib/graph';
import {
  EXECUTION_TYPE_DESCRIPTORS,
  EXECUTION_TYPE_LIST,
  executionKind,
  findStepTemplates,
  findVariableReferences,
  parseStatePath,
  splitOutputPath,
  statePathsOverlap,
  stepResolver,
  taskTarget,
  type ExecutionTypeDescriptor,
  type PlannerTask,
} from '@/lib/plan';
import { resourceKey, schemaComplexityProblem, type JsonSchemaObject, type Registry, type Resource, type ResourceKind } from '@/lib/registry';
import { schemaAccepts, schemaChecker } from '@/lib/registry/schema-checker';
import type { ValidationIssue } from './issue';
import { withArticle } from './indefinite-article';

// Seed 001's plan checks against the resource registry: each task's target exists and is
// of its execution type, a tool's required parameters are present and typed, and every
// template reference points at a task upstream of the one that uses it.

/** What a resource of an execution type is called in messages: "tool", "dsl workflow". */
type TargetKind = ExecutionTypeDescriptor['resourceNoun'];

interface Catalogue {
  kindOf: Map<string, TargetKind[]>;
  /** Kinds the registry describes at all; a kind it has no resources of is not checked. */
  described: Set<TargetKind>;
  tools: Map<string, JsonSchemaObject>;
}

const catalogues = new WeakMap<Registry, Catalogue>();

function catalogue(registry: Registry): Catalogue {
  let built = catalogues.get(registry);
  if (built) return built;
  const kindOf = new Map<string, TargetKind[]>();
  // Keys match case-insensitively, and agents by name too: imported plans route to
  // "Analyst" where the registry says id "analyst", name "Analyst".
  const add = (key: string, kind: TargetKind) => kindOf.set(key.toLowerCase(), [...new Set([...(kindOf.get(key.toLowerCase()) ?? []), kind])]);
  for (const { registryKinds, resourceNoun } of EXECUTION_TYPE_LIST) {
    for (const resource of registryKinds.flatMap((kind): Resource[] => registry[kind])) {
      add(resourceKey(resource), resourceNoun);
      if ('id' in resource && 'name' in resource && resource.name) add(resource.name, resourceNoun);
    }
  }
  const tools = new Map<string, JsonSchemaObject>();
  for (const kind of EXECUTION_TYPE_DESCRIPTORS.tool.registryKinds) for (const tool of registry[kind]) tools.set(tool.id.toLowerCase(), tool.input_schema);
  built = { kindOf, tools, described: new Set([...kindOf.values()].flat()) };
  catalogues.set(registry, built);
  return built;
}

/** The id a task is routed to, and which kind of resource it must be. */
function targetOf(task: PlannerTask): { id: string; field: string; kind: TargetKind; registryKind: ResourceKind } | null {
  const target = taskTarget(task);
  const descriptor = target && EXECUTION_TYPE_DESCRIPTORS[target.kind];
  return target && descriptor && { id: target.id, field: target.field, kind: descriptor.resourceNoun, registryKind: descriptor.registryKinds[0] };
}

/** A value filled in at run time: its type is the referenced data's, not checkable here. */
function isTemplate(value: unknown): boolean {
  return typeof value === 'string' && (value.includes('${') || value.includes('†state') || value.includes('†input'));
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) visitStrings(item, visit);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) visitStrings(item, visit);
}

/**
 * `listed` says whether an error found now can still be listed in the result (issue-caps
 * keeps the first errors): one that cannot is counted with an empty message, and its type
 * check only asks whether the value passes, which is much cheaper to answer.
 */
function parameterIssues(task: PlannerTask, schema: JsonSchemaObject, issues: ValidationIssue[], listed: () => boolean): void {
  const args = task.arguments ?? {};
  const properties = (schema.properties ?? {}) as Record<string, object>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    if (!(name in args)) {
      issues.push({
        severity: 'error',
        code: 'missing_parameter',
        message: `Task "${task.task_id}" does not give "${name}", which ${task.tool_id} requires`,
        task_ids: [task.task_id],
      });
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) {
      if (schema.additionalProperties === false) {
        issues.push({
          severity: 'error',
          code: 'unknown_parameter',
          message: `Task "${task.task_id}" gives "${name}", which ${task.tool_id} does not take (it takes ${Object.keys(properties).join(', ') || 'no parameters'})`,
          task_ids: [task.task_id],
        });
      }
      continue;
    }
    if (isTemplate(value)) continue;
    if (!listed()) {
      if (schemaAccepts(property, value) === false) issues.push({ severity: 'error', code: 'invalid_parameter', message: '', task_ids: [task.task_id] });
      continue;
    }
    const result = schemaChecker(property)?.safeParse(value);
    if (result && !result.success) {
      issues.push({
        severity: 'error',
        code: 'invalid_parameter',
        message: `Task "${task.task_id}": "${name}" for ${task.tool_id}: ${result.error.issues[0].message}`,
        task_ids: [task.task_id],
      });
    }
  }
}

function stateWriters(tasks: readonly PlannerTask[]): Array<{ segments: string[]; task: number }> {
  const writers: Array<{ segments: string[]; task: number }> = [];
  tasks.forEach((task, i) => {
    const output = (task.parameters as Record<string, unknown> | undefined)?._outputPath;
    if (typeof output !== 'string') return;
    for (const part of splitOutputPath(output)) {
      const path = parseStatePath(part);
      if (path) writers.push({ segments: path.segments, task: i });
    }
  });
  return writers;
}

function referenceIssues(tasks: readonly PlannerTask[], index: GraphIndex, issues: ValidationIssue[]): void {
  const writers = stateWriters(tasks);
  const stepTask = stepResolver(index.ids, index.idToIndex);
  tasks.forEach((task, i) => {
    const steps = new Set<number>();
    const states = new Map<string, string[]>();
    visitStrings([task.arguments, task.parameters && { ...task.parameters, _outputPath: undefined }], (text) => {
      for (const template of findStepTemplates(text)) steps.add(template.step);
      for (const read of findVariableReferences(text)) if (read.root === 'state' && read.segments.length) states.set(read.path, read.segments);
    });
    if (steps.size === 0 && states.size === 0) return;
    const upstream = new Set(ancestors(index, i));
    for (const step of steps) {
      const target = stepTask(step);
      if (target === undefined) {
        issues.push({
          severity: 'error',
          code: 'unresolved_reference',
          message: `Task "${task.task_id}" uses step[${step}], but the plan has no step ${step}`,
          task_ids: [task.task_id],
        });
      } else if (target === i || !upstream.has(target)) {
        issues.push({
          severity: 'error',
          code: 'reference_not_upstream',
          message: `Task "${task.task_id}" uses step[${step}] ("${index.ids[target]}"), but does not depend on it`,
          task_ids: [task.task_id, index.ids[target]],
        });
      }
    }
    for (const [path, segments] of states) {
      const sources = writers.filter((w) => w.task !== i && statePathsOverlap(w.segments, segments));
      // State nobody in the plan writes is input the plan expects to find (seed 002).
      if (sources.length && !sources.some((w) => upstream.has(w.task))) {
        issues.push({
          severity: 'error',
          code: 'reference_not_upstream',
          message: `Task "${task.task_id}" reads †state${path}, written by "${index.ids[sources[0].task]}", but does not depend on it`,
          task_ids: [task.task_id, index.ids[sources[0].task]],
        });
      }
    }
  });
}

export function registryIssues(tasks: readonly PlannerTask[], index: GraphIndex, registry: Registry | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const _ of registryIssueSteps(tasks, index, registry, issues));
  return issues;
}

/**
 * The same checks one task at a time, pushing into `issues`: a large plan against complex
 * tool schemas takes seconds, and the server's caller yields to its event loop between steps.
 */
export function* registryIssueSteps(
  tasks: readonly PlannerTask[],
  index: GraphIndex,
  registry: Registry | undefined,
  issues: ValidationIssue[],
  /** Errors a result lists at most (issue-caps); past them a parameter's error is counted, not worded. */
  listedErrors = Infinity,
): Generator<void> {
  if (registry) {
    const { kindOf, tools, described } = catalogue(registry);
    // Sorting puts errors first and keeps their order, so an error's place in the result is
    // the number of errors before it.
    let counted = 0;
    let errors = 0;
    const listed = () => {
      for (; counted < issues.length; counted++) if (issues[counted].severity === 'error') errors++;
      return errors < listedErrors;
    };
    // Measured once per tool, and reported once: the same schema serves every task routed to it.
    const budgetChecked = new Set<string>();
    for (const task of tasks) {
      const target = targetOf(task);
      if (!target || !described.has(target.kind)) continue;
      const kinds = kindOf.get(target.id.toLowerCase());
      if (!kinds) {
        issues.push({
          severity: 'error',
          code: 'unknown_target',
          message: `Task "${task.task_id}" is routed to ${target.kind} "${target.id}", which is not in the registry`,
          task_ids: [task.task_id],
          target: { kind: target.registryKind, id: target.id },
        });
      } else if (!kinds.includes(target.kind)) {
        issues.push({
          severity: 'error',
          code: 'target_type_mismatch',
          message: `Task "${task.task_id}" is ${withArticle(executionKind(task))} task, but "${target.id}" (its ${target.field}) is a registered ${kinds.join(' and ')}`,
          task_ids: [task.task_id],
        });
      } else if (target.kind === 'tool') {
        const key = target.id.toLowerCase();
        const schema = tools.get(key)!;
        const problem = budgetChecked.has(key) ? null : schemaComplexityProblem(schema);
        budgetChecked.add(key);
        if (problem) {
          issues.push({
            severity: 'warning',
            code: 'schema_over_budget',
            message: `The input schema of tool "${target.id}" is over the complexity budget (${problem.message}); the parameters of tasks routed to it are not type-checked`,
            task_ids: [],
          });
        }
        parameterIssues(task, schema, issues, listed);
        yield;
      }
    }
  }
  referenceIssues(tasks, index, issues);
}
