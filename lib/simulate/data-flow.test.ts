import { describe, expect, it } from 'vitest';
import { TaskData, type TaskDataInput } from '@/lib/plan';
import { DEMO_REGISTRY, Registry, STORED_RESOURCE_SCHEMAS } from '@/lib/registry';
import { DRY_RUN_DATA_LIMITS, dryRun } from './dry-run';
import { buildGraphIndex, topologicalOrder } from '@/lib/graph';
import { MAX_RESOLVED_BYTES_PER_RUN, simulateDataFlow } from './data-flow';

// Template amplification: a mock value copied into the inputs of many tasks, or many times
// into one input. The tools below are as a registry stored before its size limits may
// hold them (writes now refuse strings over 10,000 characters).

const demo = Registry.parse(DEMO_REGISTRY);
const withConst = (text: string): Registry => ({
  ...demo,
  tools: [...demo.tools, STORED_RESOURCE_SCHEMAS.tools.parse({ id: 'big', output_schema: { type: 'object', properties: { x: { type: 'string', const: text } } } })],
});
const plan = (n: number, argument: unknown): TaskDataInput => ({
  planned_tasks: [
    { task_id: 't0', execution_type: 'tool', tool_id: 'big' },
    ...Array.from({ length: n - 1 }, (_, i) => ({ task_id: `t${i + 1}`, execution_type: 'tool', tool_id: 'contaminants_list', arguments: { note: argument }, dependencies: ['t0'] })),
  ],
});
const run = (registry: Registry, input: TaskDataInput) => dryRun(TaskData.parse(input), registry, { workers: 8 });
const tooLarge = (result: Awaited<ReturnType<typeof dryRun>>) => result.findings.filter((f) => f.code === 'value_too_large');
/** The data flow's findings: t0's custom tool has no cost estimate, which is another matter. */
const flowFindings = (result: Awaited<ReturnType<typeof dryRun>>) => result.findings.filter((f) => f.code !== 'cost_unknown');

describe('data flow limits', () => {
  it('makes a 9 MB const into an ordinary mock value, so 300 tasks copying it stay small', async () => {
    const result = await run(withConst('x'.repeat(9 * 1024 * 1024)), plan(300, 'a${step[0].x}'));
    expect(JSON.stringify(result).length).toBeLessThan(200_000);
    expect(result.tasks[0].mock_output).toEqual({ x: 'big-x-1' });
    expect(result.tasks[299].resolved_input).toEqual({ note: 'abig-x-1' });
    expect(flowFindings(result)).toEqual([]);
    expect(result.assumptions).toContain(
      "1 const, enum or default value of a tool's output schema is over 64 kB (or nested over 32 levels); the mock outputs are made from the schema's type there instead",
    );
  });

  it('stops resolving once a dry run has built 32 MB of resolved text, with one finding', async () => {
    const n = 600; // each task's note is 60,001 bytes: the 560th would pass 32 MB
    const result = await run(withConst('y'.repeat(60_000)), plan(n, 'a${step[0].x}'));
    const findings = tooLarge(result);
    expect(findings).toEqual([
      {
        task_id: 't560',
        code: 'value_too_large',
        message: 'Resolving argument "note" would take the text resolved in this dry run past 32 MB, the limit per dry run; it and the later templates inside strings are left unresolved (null)',
      },
    ]);
    expect(Math.floor(MAX_RESOLVED_BYTES_PER_RUN / 60_001)).toBe(559);
    expect(flowFindings(result)).toHaveLength(1);
    // What the result keeps is the stored budget (2 MB), whatever the plan resolved.
    expect(JSON.stringify(result).length).toBeLessThan(DRY_RUN_DATA_LIMITS.maxTaskDataBytes + 300_000);
    expect((result.tasks[1].resolved_input as { note: string }).note).toHaveLength(60_001);

    // The data flow itself holds no more than 32 MB of resolved text: the rest is null.
    const tasks = TaskData.parse(plan(n, 'a${step[0].x}')).planned_tasks;
    const index = buildGraphIndex(tasks);
    const flow = await simulateDataFlow(tasks, index, topologicalOrder(index)!, () => true, withConst('y'.repeat(60_000)));
    const notes = flow.resolvedInputs.map((input) => (input as { note?: string | null } | null)?.note);
    expect(notes.filter((note) => typeof note === 'string')).toHaveLength(559);
    expect(notes.slice(560)).toEqual(new Array(n - 560).fill(null));
    expect(notes.reduce((bytes, note) => bytes + (note?.length ?? 0), 0)).toBeLessThanOrEqual(MAX_RESOLVED_BYTES_PER_RUN);
  });

  it('leaves a value over 64 kB unresolved with a finding naming the argument, without building it', async () => {
    const result = await run(withConst('z'.repeat(40_000)), plan(3, { list: ['${step[0].x}-${step[0].x}', 'ok ${step[0].x}'] }));
    expect(tooLarge(result).map((f) => [f.task_id, f.message])).toEqual([
      ['t1', 'The resolved value of argument "note.list[0]" would be at least 79 kB; the limit is 64 kB per value, so it is left unresolved (null)'],
      ['t2', 'The resolved value of argument "note.list[0]" would be at least 79 kB; the limit is 64 kB per value, so it is left unresolved (null)'],
    ]);
    expect(result.tasks[1].resolved_input).toEqual({ note: { list: [null, `ok ${'z'.repeat(40_000)}`] } });
  });

  it('gives a finding, not an exception, for one argument with 20,000 references to a 60 kB value', async () => {
    // Built, this string would be 1.2 GB: past the longest string V8 makes (a RangeError, a 500).
    const result = await run(withConst('w'.repeat(60_000)), plan(2, '${step[0].x}'.repeat(20_000)));
    expect(tooLarge(result).map((f) => f.message)).toEqual([
      'The resolved value of argument "note" would be at least 118 kB; the limit is 64 kB per value, so it is left unresolved (null)',
    ]);
    expect(result.tasks[1].resolved_input).toEqual({ note: null });
  });

  it('counts the new arrays `*` paths make against the same 32 MB', async () => {
    const rows = Array.from({ length: 4_000 }, (_, i) => `row-${String(i).padStart(6, '0')}`); // 52,001 bytes of JSON
    const registry: Registry = {
      ...demo,
      tools: [...demo.tools, STORED_RESOURCE_SCHEMAS.tools.parse({ id: 'big', output_schema: { type: 'object', properties: { list: { const: rows } } } })],
    };
    const result = await run(registry, plan(700, '${step[0].list.*}'));
    expect(Math.floor(MAX_RESOLVED_BYTES_PER_RUN / 52_001)).toBe(645); // the 646th task's array would pass 32 MB
    expect(tooLarge(result).map((f) => [f.task_id, f.message])).toEqual([
      ['t646', 'Resolving argument "note" would take the text resolved in this dry run past 32 MB, the limit per dry run; it and the later templates inside strings are left unresolved (null)'],
    ]);
    expect(result.tasks[1].resolved_input).toEqual({ note: rows });
  });

  it('makes at most 32 MB of mock outputs per dry run, and says how many tasks have none', async () => {
    const text = 'u'.repeat(60_000);
    const n = 600; // 600 tools, each mock output about 60 kB
    const registry: Registry = {
      ...demo,
      tools: Array.from({ length: n }, (_, i) => STORED_RESOURCE_SCHEMAS.tools.parse({ id: `big${i}`, output_schema: { type: 'object', properties: { x: { const: text } } } })),
    };
    const tasks = TaskData.parse({ planned_tasks: Array.from({ length: n }, (_, i) => ({ task_id: `t${i}`, execution_type: 'tool', tool_id: `big${i}` })) }).planned_tasks;
    const index = buildGraphIndex(tasks);
    const flow = await simulateDataFlow(tasks, index, topologicalOrder(index)!, () => true, registry);
    expect(flow.mockOutputs.filter((mock) => mock !== null)).toHaveLength(560);
    expect(flow.assumptions).toEqual(['mock outputs are made up to 32 MB per dry run; 40 later tasks have none (null)']);
  });

  it('resolves many small references in one argument up to 64 kB, with state paths in the same pass', async () => {
    const tasks: TaskDataInput = {
      planned_tasks: [
        { task_id: 't0', execution_type: 'tool', tool_id: 'big', parameters: { _outputPath: '†state.found' } },
        { task_id: 't1', execution_type: 'tool', tool_id: 'contaminants_list', arguments: { a: '${step[0].x}/†state.found.x', b: '†state.found.x,'.repeat(20_000) }, dependencies: ['t0'] },
      ],
    };
    const result = await run(withConst('v'.repeat(5)), tasks);
    expect(result.tasks[1].resolved_input).toEqual({ a: 'vvvvv/vvvvv', b: null });
    expect(tooLarge(result).map((f) => f.message)).toEqual([
      'The resolved value of argument "b" would be at least 65 kB; the limit is 64 kB per value, so it is left unresolved (null)',
    ]);
  });

  it('reads state written under either of an _outputPath\'s paths, by dot or index, and says when the written value lacks a field', async () => {
    const tasks: TaskDataInput = {
      planned_tasks: [
        { task_id: 't0', execution_type: 'tool', tool_id: 'big', parameters: { _outputPath: '†state.found || †state.error' } },
        {
          task_id: 't1',
          execution_type: 'tool',
          tool_id: 'contaminants_list',
          arguments: { a: '†state.error.x', b: 'got †state.found.x${step[0].x}', c: '†state.found[0]', d: '†state.elsewhere' },
          dependencies: ['t0'],
        },
      ],
    };
    const result = await run(withConst('v'), tasks);
    expect(result.tasks[1].resolved_input).toEqual({ a: 'v', b: 'got vv', c: '†state.found[0]', d: '†state.elsewhere' });
    expect(flowFindings(result).map((f) => f.message)).toEqual(['†state.found[0] is written by an upstream task, but its mock output has no such field']);
  });
});

describe('findings past those listed', () => {
  it('are counted with the same verdicts but no message, and the listed ones are worded as before', async () => {
    const registry = Registry.parse({
      tools: [{ id: 'pick', description: 'Pick', input_schema: { type: 'object', properties: { choice: { anyOf: [0, 1, 2].map((i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'integer' } }, required: [`k${i}`] })) }, n: { type: 'integer' } } } }],
    });
    const tasks = TaskData.parse({
      planned_tasks: Array.from({ length: 12 }, (_, i) => ({ task_id: `t${i}`, execution_type: 'tool', tool_id: 'pick', arguments: i % 3 ? { choice: { [`k${i % 3}`]: i }, n: i % 2 ? 'x' : 1 } : { choice: { nope: i }, n: 2.5 } })),
    }).planned_tasks;
    const index = buildGraphIndex(tasks);
    const order = topologicalOrder(index)!;
    const all = await simulateDataFlow(tasks, index, order, () => true, registry);
    const listed = await simulateDataFlow(tasks, index, order, () => true, registry, undefined, 3);
    expect(all.findings.length).toBeGreaterThan(3);
    expect(listed.findings.map((f) => [f.task_id, f.code])).toEqual(all.findings.map((f) => [f.task_id, f.code]));
    expect(listed.findings.slice(0, 3)).toEqual(all.findings.slice(0, 3));
    expect(listed.findings.slice(3).every((f) => f.message === '')).toBe(true);
  });
});
