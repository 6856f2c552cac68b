import { Ajv } from 'ajv';

// What WfCommons' own tools accept of a WfFormat 1.5 file, written from its specification
// (the WfFormat JSON schema and wfcommons-validator's semantic checks): the schema's
// structure, and the validator's errors and warnings about the graph and the execution
// record. WfCommons' loaders read workflow.execution unconditionally, so it is required here.

const id = { type: 'string', minLength: 1 };
const refs = { type: 'array', items: { type: 'string', pattern: '^[0-9a-zA-Z-_.]*$' } };

const SCHEMA = {
  type: 'object',
  required: ['name', 'schemaVersion', 'workflow'],
  properties: {
    name: id,
    description: id,
    schemaVersion: { enum: ['1.5'] },
    workflow: {
      type: 'object',
      required: ['specification', 'execution'],
      properties: {
        specification: {
          type: 'object',
          required: ['tasks'],
          properties: {
            tasks: {
              type: 'array',
              minItems: 1,
              items: { type: 'object', required: ['name', 'id', 'parents', 'children'], properties: { name: id, id, parents: refs, children: refs, inputFiles: refs, outputFiles: refs } },
            },
            files: { type: 'array', items: { type: 'object', required: ['id', 'sizeInBytes'], properties: { id, sizeInBytes: { type: 'integer', minimum: 0 } } } },
          },
        },
        execution: {
          type: 'object',
          required: ['makespanInSeconds', 'executedAt', 'tasks'],
          properties: {
            makespanInSeconds: { type: 'number' },
            executedAt: id,
            tasks: { type: 'array', minItems: 1, items: { type: 'object', required: ['id', 'runtimeInSeconds'], properties: { id, runtimeInSeconds: { type: 'number' } } } },
          },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(SCHEMA);

interface Written {
  workflow: {
    specification: { tasks: Array<{ id: string; parents: string[]; children: string[]; inputFiles?: string[]; outputFiles?: string[] }>; files?: Array<{ id: string }> };
    execution: { tasks: Array<{ id: string }> };
  };
}

/** Every error and warning WfCommons would raise about `file`; empty when it accepts it cleanly. */
export function wfCommonsProblems(file: unknown): string[] {
  if (!validate(file)) return (validate.errors ?? []).map((e) => `${e.instancePath || '<instance>'}: ${e.message}`);
  const { specification, execution } = (file as Written).workflow;
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const task of specification.tasks) {
    if (ids.has(task.id)) problems.push(`task ${task.id} is declared more than once`);
    ids.add(task.id);
  }
  const parents = new Map(specification.tasks.map((t) => [t.id, new Set(t.parents)]));
  const children = new Map(specification.tasks.map((t) => [t.id, new Set(t.children)]));
  for (const task of specification.tasks) {
    for (const ref of [...task.parents, ...task.children]) {
      if (ref === task.id) problems.push(`task ${task.id} names itself`);
      else if (!ids.has(ref)) problems.push(`task ${task.id} names undeclared task ${ref}`);
    }
    for (const p of task.parents) if (ids.has(p) && !children.get(p)!.has(task.id)) problems.push(`${p} does not list ${task.id} as a child`);
    for (const c of task.children) if (ids.has(c) && !parents.get(c)!.has(task.id)) problems.push(`${c} does not list ${task.id} as a parent`);
    const files = new Set((specification.files ?? []).map((f) => f.id));
    for (const f of [...(task.inputFiles ?? []), ...(task.outputFiles ?? [])]) if (!files.has(f)) problems.push(`task ${task.id} uses undeclared file ${f}`);
  }
  const executed = new Set<string>();
  for (const task of execution.tasks) {
    if (executed.has(task.id)) problems.push(`execution lists ${task.id} twice`);
    if (!ids.has(task.id)) problems.push(`execution lists undeclared task ${task.id}`);
    executed.add(task.id);
  }
  for (const task of ids) if (!executed.has(task)) problems.push(`task ${task} has no entry in the execution section`);
  return problems;
}
