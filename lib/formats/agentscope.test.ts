import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlanDocument, type PlanDocumentInput } from '@/lib/plan';
import { agentScopeFormat } from './agentscope';
import { cortexXmlFormat } from './cortex-xml';
import { FormatError, type ParsedPlan } from './format';
import { errorThrownBy, readFixture } from './test-support';

// Seed 004 prints its task lists as Python (Task(...) calls and TaskUpdate results);
// each fixture is that list as JSON, the seed's values verbatim:
// - seeded-tasks.json: "Customize Tasks", after the whole snippet, reverse edge appended;
// - seeded-tasks-one-sided.json: the same list before `tasks[0].blocks.append("2")`;
// - task-update-state-dump.json: "Express Dependencies" after TaskUpdate(task_id="2",
//   add_blocked_by=["1"]), as an AgentState dump with every Storage field (subjects,
//   timestamps are ours: the seed does not print them);
// - lifecycle.json: the "Task Lifecycle" states, one task of each, including a deleted
//   one with edges (constructed: the seed describes deletion but prints no such list).
const fixture = (name: string) => readFixture('agentscope', name);
const cortexFixture = (name: string) => readFixture('cortex-xml', name);

const errorOf = (fn: () => unknown) => errorThrownBy(FormatError, fn);

const parse = (text: string) => agentScopeFormat.parse(text);
const tasksOf = (parsed: ParsedPlan) => parsed.plan.planned_tasks ?? [];
const graph = (parsed: ParsedPlan) => tasksOf(parsed).map((t) => [t.task_id, t.dependencies]);

// Independent of the adapter: reads serialize's output back for comparison.
const OutputTask = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  state: z.enum(['pending', 'in_progress', 'completed']),
  owner: z.string().nullable(),
  blocks: z.array(z.string()),
  blocked_by: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
const Output = z.array(OutputTask.catchall(z.unknown()));
const serialize = (input: PlanDocumentInput) => {
  const out = agentScopeFormat.serialize(PlanDocument.parse(input));
  return { ...out, tasks: Output.parse(JSON.parse(out.text)) };
};

const SEEDED = [
  {
    task_id: '1',
    description: 'Fetch project requirements',
    instructions: 'Read README.md and CONTRIBUTING.md in the repo root.',
    execution_type: 'agent',
    agent_id: null,
    status: 'pending',
    dependencies: [],
    parameters: { metadata: { source: 'seed' }, agentscope_state: 'pending' },
  },
  {
    task_id: '2',
    description: 'Draft an implementation plan',
    instructions: 'Produce a step-by-step plan based on the requirements.',
    execution_type: 'agent',
    agent_id: null,
    status: 'pending',
    dependencies: ['1'],
    parameters: { metadata: { source: 'seed' }, agentscope_state: 'pending' },
  },
];

describe('agentscope: seed 004 task lists', () => {
  it('reads the seeded two-task plan: 2 is blocked by 1', () => {
    const parsed = parse(fixture('seeded-tasks.json'));
    expect(tasksOf(parsed)).toEqual(SEEDED);
    expect(parsed.job).toBeUndefined();
  });

  it('reads the same plan before the reverse edge was added: one side is enough', () => {
    expect(tasksOf(parse(fixture('seeded-tasks-one-sided.json')))).toEqual(SEEDED);
  });

  it('reads the TaskUpdate example from an AgentState dump, with created_at as creation_time', () => {
    const parsed = parse(fixture('task-update-state-dump.json'));
    expect(graph(parsed)).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
    expect(tasksOf(parsed).map((t) => [t.description, t.instructions, t.creation_time])).toEqual([
      ['First task', null, '2025-01-01T10:00:00Z'],
      ['Second task', null, '2025-01-01T10:00:05Z'],
    ]);
  });

  it('reads the lifecycle states and drops the deleted task with its edges', () => {
    const parsed = parse(fixture('lifecycle.json'));
    expect(graph(parsed)).toEqual([
      ['1', []],
      ['2', ['1']],
      ['4', ['2']],
    ]);
    expect(tasksOf(parsed).map((t) => [t.task_id, t.status, t.parameters?.agentscope_state, t.agent_id])).toEqual([
      ['1', 'completed', 'completed', 'planner'],
      ['2', 'running', 'in_progress', 'planner'],
      ['4', 'pending', 'pending', null],
    ]);
  });

  for (const name of ['seeded-tasks.json', 'seeded-tasks-one-sided.json', 'task-update-state-dump.json', 'lifecycle.json']) {
    it(`${name}: is detected, and serializes with both edge sides, nothing dropped, reading back the same`, () => {
      const text = fixture(name);
      expect(agentScopeFormat.detect(text)).toBe(true);
      expect(cortexXmlFormat.detect(text)).toBe(false);
      const parsed = parse(text);
      const out = serialize({ plan: parsed.plan });
      expect(out.dropped).toEqual([]);
      for (const task of out.tasks) {
        for (const b of task.blocks) expect(out.tasks.find((t) => t.id === b)?.blocked_by).toContain(task.id);
        for (const b of task.blocked_by) expect(out.tasks.find((t) => t.id === b)?.blocks).toContain(task.id);
      }
      const again = parse(out.text);
      const stable = (p: ParsedPlan) => tasksOf(p).map(({ creation_time: _created, ...rest }) => rest);
      expect(stable(again)).toEqual(stable(parsed));
    });
  }

  it('writes the seeded plan back exactly as the seed builds it', () => {
    const out = serialize({ plan: parse(fixture('seeded-tasks-one-sided.json')).plan });
    expect(out.tasks.map(({ created_at: _created, ...rest }) => rest)).toEqual([
      {
        id: '1',
        subject: 'Fetch project requirements',
        description: 'Read README.md and CONTRIBUTING.md in the repo root.',
        state: 'pending',
        owner: null,
        blocks: ['2'],
        blocked_by: [],
        metadata: { source: 'seed' },
      },
      {
        id: '2',
        subject: 'Draft an implementation plan',
        description: 'Produce a step-by-step plan based on the requirements.',
        state: 'pending',
        owner: null,
        blocks: [],
        blocked_by: ['1'],
        metadata: { source: 'seed' },
      },
    ]);
  });
});

describe('agentscope: reading', () => {
  it('accepts the TaskContext dump { tasks } and the "status" spelling of TaskUpdate and TaskList', () => {
    const parsed = parse('{"tasks": [{"id": "a", "subject": "x", "status": "completed"}]}');
    expect(tasksOf(parsed).map((t) => [t.task_id, t.status])).toEqual([['a', 'completed']]);
  });

  it('dedupes an edge declared on both sides and twice on one side', () => {
    const parsed = parse(
      JSON.stringify([
        { id: '1', subject: 'a', blocks: ['2', '2'] },
        { id: '2', subject: 'b', blocked_by: ['1', '1'] },
      ]),
    );
    expect(graph(parsed)).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
  });

  it('keeps fields it does not know and writes them back', () => {
    const parsed = parse('[{"id": "1", "subject": "a", "priority": 3, "labels": ["x"]}]');
    expect(tasksOf(parsed)[0].parameters?.agentscope_extra).toEqual({ priority: 3, labels: ['x'] });
    const out = serialize({ plan: parsed.plan });
    expect(out.tasks[0]).toMatchObject({ priority: 3, labels: ['x'] });
  });
});

describe('agentscope: errors name the JSON path or line', () => {
  it('truncated JSON: the line and column where the text stops', () => {
    const text = fixture('seeded-tasks.json');
    const cut = text.slice(0, text.indexOf('"Draft'));
    const lines = cut.split('\n');
    const error = errorOf(() => parse(cut));
    expect(error.location).toBe(`line ${lines.length}, column ${lines[lines.length - 1].length + 1}`);
    expect(error.detail).toBe('not valid JSON: the text ends too soon (truncated?)');
  });

  it('every truncation of every seed list fails with a line and column', () => {
    for (const name of ['seeded-tasks.json', 'seeded-tasks-one-sided.json', 'task-update-state-dump.json', 'lifecycle.json']) {
      const text = fixture(name).trimEnd();
      for (let end = 0; end < text.length; end++) {
        expect(errorOf(() => parse(text.slice(0, end))).location).toMatch(/^line \d+, column \d+$/);
      }
    }
  });

  it('a syntax error V8 reports without a position is still located', () => {
    expect(errorOf(() => parse('[\n  {"id": "1", "subject": "a"},\n]')).location).toBe('line 3, column 1');
    expect(errorOf(() => parse('[{"id": "1",\n "subject": \'a\'}]')).location).toBe('line 2, column 13');
  });

  it('wrong types and values, with the path', () => {
    expect(errorOf(() => parse('[{"id": "1", "subject": "a"}, {"id": 2, "subject": "b"}]')).location).toBe('[1].id');
    expect(errorOf(() => parse('[{"id": "1", "subject": "a", "blocks": "2"}]')).location).toBe('[0].blocks');
    expect(errorOf(() => parse('[{"id": "1", "subject": "a", "state": "failed"}]')).location).toBe('[0].state');
    expect(errorOf(() => parse('[{"id": "1"}]')).message).toBe('agentscope: [0].subject: Invalid input: expected string, received undefined');
    expect(errorOf(() => parse('{"tasks": [{"id": "1", "subject": "a", "created_at": "yesterday"}]}')).message).toBe(
      'agentscope: tasks[0].created_at: expected an ISO 8601 date-time',
    );
    expect(errorOf(() => parse('{"tasks_context": {"tasks": [{"id": "", "subject": "a"}]}}')).location).toBe('tasks_context.tasks[0].id');
    expect(errorOf(() => parse('{}')).message).toBe(
      'agentscope: (root): expected a JSON array of tasks, { "tasks": [...] } or { "tasks_context": { "tasks": [...] } }',
    );
  });

  it('references to tasks that do not exist, on either side', () => {
    const list = [
      { id: '1', subject: 'a' },
      { id: '2', subject: 'b', blocks: ['1'] },
      { id: '3', subject: 'c', blocked_by: ['2', '9'] },
    ];
    expect(errorOf(() => parse(JSON.stringify(list))).message).toBe('agentscope: [2].blocked_by[1]: task 9 does not exist');
    list[1].blocks = ['1', '7'];
    expect(errorOf(() => parse(JSON.stringify(list))).message).toBe('agentscope: [1].blocks[1]: task 7 does not exist');
  });

  it('a task blocking itself, and a duplicate id', () => {
    expect(errorOf(() => parse('[{"id": "1", "subject": "a", "blocked_by": ["1"]}]')).message).toBe(
      'agentscope: [0].blocked_by[0]: task 1 cannot be blocked by itself',
    );
    expect(errorOf(() => parse('[{"id": "1", "subject": "a"}, {"id": "2", "subject": "b"}, {"id": "1", "subject": "c"}]')).message).toBe(
      'agentscope: [2].id: task id "1" is already used by [0]',
    );
  });

  it('a cycle, with its path, where its closing edge is declared', () => {
    const list: Array<{ id: string; subject: string; blocks: string[]; blocked_by: string[] }> = [
      { id: '1', subject: 'a', blocks: [], blocked_by: ['3'] },
      { id: '2', subject: 'b', blocks: [], blocked_by: ['1'] },
      { id: '3', subject: 'c', blocks: [], blocked_by: ['2'] },
    ];
    expect(errorOf(() => parse(JSON.stringify(list))).message).toBe('agentscope: [0].blocked_by[0]: cycle 1 → 2 → 3 → 1');
    // The same cycle closed from the other side.
    list[0].blocked_by = [];
    list[2].blocks = ['1'];
    expect(errorOf(() => parse(JSON.stringify(list))).message).toBe('agentscope: [2].blocks[0]: cycle 1 → 2 → 3 → 1');
  });

  it('a reference to a deleted task is not an error: the edge goes with it', () => {
    const parsed = parse('[{"id": "1", "subject": "a", "state": "deleted", "blocked_by": ["ghost"]}, {"id": "2", "subject": "b", "blocked_by": ["1"]}]');
    expect(graph(parsed)).toEqual([['2', []]]);
  });
});

describe('agentscope: serialize', () => {
  it('maps statuses to states, falling back to the last known state, and lists what it cannot carry', () => {
    const out = serialize({
      plan: {
        status: 'in_progress',
        planned_tasks: [
          { task_id: '1', status: 'running', execution_type: 'agent' },
          { task_id: '2', status: 'done', execution_type: 'agent' },
          { task_id: '3', status: 'failed', parameters: { agentscope_state: 'in_progress' }, execution_type: 'agent' },
          {
            task_id: '4',
            status: 'cancelled',
            execution_type: 'tool',
            tool_id: 'search',
            function_id: 'run',
            arguments: { q: 1 },
            convertor_code: 'x',
            estimate_data: { cost_usd: 1 },
            mark_replan: true,
            output: { r: 1 },
            main_task_id: 'm',
            parameters: { metadata: 'not an object', sub_type: 'tools' },
            dependencies: ['4', 'ghost', '1', '1'],
          },
          { task_id: '1', description: 'again' },
        ],
      },
      job: { job_goal: { objective: 'x' }, task_description: 'y' },
    });
    expect(out.tasks.map((t) => [t.id, t.state, t.blocks, t.blocked_by, t.metadata])).toEqual([
      ['1', 'in_progress', ['4'], [], {}],
      ['2', 'completed', [], [], {}],
      ['3', 'in_progress', [], [], {}],
      ['4', 'pending', [], ['1'], {}],
    ]);
    expect(out.dropped).toEqual([
      'task 1: a second task with this id (AgentScope ids are unique)',
      'task 4: dependency on itself',
      'task 4: dependency on unknown task ghost',
      'task 2: status done (read back as completed)',
      'task 3: status failed (written as state in_progress)',
      'task 4: main_task_id, execution_type tool, tool_id, function_id, parameters.metadata (not an object), parameters.sub_type, arguments, convertor_code, estimate_data, mark_replan, output',
      'task 4: status cancelled (written as state pending)',
      'plan: status "in_progress"',
      'job: job_goal, task_description',
    ]);
  });
});

describe('agentscope: detect', () => {
  it('is false for Cortex XML, other JSON plans, {} and garbage', () => {
    for (const name of ['prompt-sample.xml', 'research-ai-trends.answer.txt', 'market-analysis.xml', 'data-pipeline.xml']) {
      expect(agentScopeFormat.detect(cortexFixture(name))).toBe(false);
    }
    const others = [
      '{}',
      '[]',
      '',
      'garbage',
      '[{"subject": "no id"}]',
      '{"planned_tasks": [{"task_id": "1", "parameters": {"subject": "x"}}]}',
      '{"steps": [{"tool": "t", "params": {"subject": "x"}}]}',
      '[{"id": "1", "subject": "a"',
    ];
    for (const text of others) expect(agentScopeFormat.detect(text)).toBe(false);
  });
});

// --- properties ---------------------------------------------------------------------

const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const metadata = fc.dictionary(
  fc.string().filter((k) => k !== '__proto__'),
  json,
  { maxKeys: 3 },
);
const STATES = ['pending', 'in_progress', 'completed'] as const;
const STATUS = { pending: 'pending', in_progress: 'running', completed: 'completed' } as const;

/** A random acyclic AgentScope list: edge (i, j), i < j in list order, means j is blocked by i. */
const agentScopeList = fc.integer({ min: 0, max: 8 }).chain((n) =>
  fc.record({
    ids: fc.uniqueArray(fc.oneof(fc.integer({ min: 1, max: 99 }).map(String), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 })), {
      minLength: n,
      maxLength: n,
    }),
    // 0: no edge; 1: declared as blocks; 2: as blocked_by; 3: on both sides.
    edges: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }),
    tasks: fc.array(
      fc.record({
        subject: fc.string({ unit: 'binary', maxLength: 12 }),
        description: fc.string({ unit: 'grapheme', maxLength: 12 }),
        state: fc.constantFrom(...STATES),
        owner: fc.option(fc.string({ maxLength: 6 }), { nil: null }),
        metadata,
        created_at: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      }),
      { minLength: n, maxLength: n },
    ),
  }),
);

interface Built {
  text: string;
  /** Expected dependencies per id. */
  deps: Map<string, Set<string>>;
  raw: Array<Record<string, unknown> & { id: string }>;
}

function build(p: { ids: string[]; edges: number[]; tasks: Array<Record<string, unknown>> }): Built {
  const raw = p.ids.map((id, k) => ({ id, ...p.tasks[k], blocks: [] as string[], blocked_by: [] as string[] }));
  const deps = new Map(p.ids.map((id) => [id, new Set<string>()]));
  let e = 0;
  for (let j = 0; j < raw.length; j++) {
    for (let i = 0; i < j; i++) {
      const side = p.edges[e++];
      if (side === 0) continue;
      deps.get(raw[j].id)!.add(raw[i].id);
      if (side & 1) raw[i].blocks.push(raw[j].id);
      if (side & 2) raw[j].blocked_by.push(raw[i].id);
    }
  }
  return { text: JSON.stringify(raw), deps, raw };
}

describe('agentscope: properties', () => {
  it('blocks and blocked_by are one edge set, whichever side declares each edge', () => {
    fc.assert(
      fc.property(agentScopeList, (p) => {
        const { text, deps } = build(p);
        const parsed = parse(text);
        expect(tasksOf(parsed).map((t) => t.task_id)).toEqual(p.ids);
        for (const t of tasksOf(parsed)) {
          expect(t.dependencies).toHaveLength(new Set(t.dependencies).size);
          expect(new Set(t.dependencies)).toEqual(deps.get(t.task_id ?? ''));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('parse → serialize → parse keeps ids, texts, states, owners, metadata, timestamps and edges', () => {
    fc.assert(
      fc.property(agentScopeList, (p) => {
        const { text, deps, raw } = build(p);
        const out = serialize({ plan: parse(text).plan });
        expect(out.dropped).toEqual([]);
        expect(agentScopeFormat.detect(out.text) || raw.length === 0).toBe(true);
        out.tasks.forEach((t, k) => {
          const source = raw[k];
          expect([t.id, t.subject, t.description, t.state, t.owner, t.metadata, t.created_at]).toEqual([
            source.id,
            source.subject,
            source.description,
            source.state,
            source.owner,
            source.metadata,
            source.created_at,
          ]);
          expect(new Set(t.blocked_by)).toEqual(deps.get(t.id));
          const blocks = [...deps].filter(([, d]) => d.has(t.id)).map(([id]) => id);
          expect(new Set(t.blocks)).toEqual(new Set(blocks));
        });
        const again = tasksOf(parse(out.text));
        again.forEach((t, k) => {
          expect(t.status).toBe(STATUS[p.tasks[k].state]);
          expect(new Set(t.dependencies)).toEqual(deps.get(t.task_id ?? ''));
        });
      }),
      { numRuns: 200 },
    );
  });

  it('a deleted task reads as if it had been removed and its id taken out of every edge list', () => {
    fc.assert(
      fc.property(agentScopeList, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (p, deletedFlags) => {
        const { raw } = build(p);
        const withDeleted = raw.map((t, k) => (deletedFlags[k] ? { ...t, state: 'deleted' } : t));
        const gone = new Set(raw.filter((_, k) => deletedFlags[k]).map((t) => t.id));
        const removed = raw
          .filter((t) => !gone.has(t.id))
          .map((t) => ({
            ...t,
            blocks: (t.blocks as string[]).filter((id) => !gone.has(id)),
            blocked_by: (t.blocked_by as string[]).filter((id) => !gone.has(id)),
          }));
        expect(tasksOf(parse(JSON.stringify(withDeleted)))).toEqual(tasksOf(parse(JSON.stringify(removed))));
      }),
      { numRuns: 200 },
    );
  });

  it('a reference to an unknown id is reported at its exact path', () => {
    fc.assert(
      fc.property(agentScopeList.filter((p) => p.ids.length > 0), fc.nat(), fc.boolean(), (p, pick, onBlocks) => {
        const { raw } = build(p);
        const k = pick % raw.length;
        const field = onBlocks ? 'blocks' : 'blocked_by';
        const list = raw[k][field] as string[];
        list.push('no-such-task\u0000');
        const error = errorOf(() => parse(JSON.stringify(raw)));
        expect(error.location).toBe(`[${k}].${field}[${list.length - 1}]`);
        expect(error.detail).toBe('task no-such-task\u0000 does not exist');
      }),
      { numRuns: 200 },
    );
  });

  it('random TaskData plans serialize to lists that read back with the same graph and fields', () => {
    fc.assert(
      fc.property(agentScopeList, (p) => {
        const { deps } = build(p);
        const doc = PlanDocument.parse({
          plan: {
            planned_tasks: p.ids.map((id, k) => ({
              task_id: id,
              description: p.tasks[k].subject,
              instructions: p.tasks[k].description === '' ? null : p.tasks[k].description,
              execution_type: 'agent',
              agent_id: p.tasks[k].owner,
              status: STATUS[p.tasks[k].state],
              dependencies: [...deps.get(id)!],
              parameters: { metadata: p.tasks[k].metadata },
              creation_time: p.tasks[k].created_at,
            })),
          },
        });
        const out = agentScopeFormat.serialize(doc);
        expect(out.dropped).toEqual([]);
        const back = tasksOf(parse(out.text));
        back.forEach((t, k) => {
          const source = doc.plan.planned_tasks[k];
          expect([t.task_id, t.description, t.instructions, t.agent_id, t.status, t.creation_time, t.parameters?.metadata]).toEqual([
            source.task_id,
            source.description,
            source.instructions,
            source.agent_id,
            source.status,
            source.creation_time,
            source.parameters.metadata,
          ]);
          expect(new Set(t.dependencies)).toEqual(new Set(source.dependencies));
        });
      }),
      { numRuns: 200 },
    );
  });
});
