// Seed 001's example plans read as the seed describes them, exports that re-point
// step templates, round trips of random plans, and the errors a broken plan raises.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, type PlanDocumentInput, type PlannerTaskInput } from '@/lib/plan';
import { FormatError, type ParsedPlan } from './format';
import { ClearAiPlanSchema } from './clear-ai-plan-schema-test-support';
import { errorThrownBy, jsonFixtureNames, readFixture, toolShape } from './test-support';
import { plannerAgentFormat } from './planner-agent';

const FIXTURES = 'planner-agent';
const OTHER_FIXTURES = 'state-calls';
const fixture = (name: string) => readFixture(FIXTURES, name);
const jsonFixtures = jsonFixtureNames;

const { parse, serialize, detect } = plannerAgentFormat;

const shape = toolShape;

const errorOf = (fn: () => unknown) => errorThrownBy(FormatError, fn);

const doc = (input: PlanDocumentInput) => PlanDocument.parse(input);
const EXPORTED_AT = '2026-03-01T09:30:00.000Z';
const now = () => new Date(EXPORTED_AT);
const exported = (parsed: ParsedPlan) => serialize(doc({ plan: parsed.plan, job: parsed.job }), { now });

describe('planner-agent: seed 001 examples', () => {
  it('example 1 (simple query): one shipments_list step, with metadata kept and the query as the job', () => {
    const parsed = parse(fixture('example-1-simple-query.json'));
    expect(shape(parsed)).toEqual([
      {
        id: 'step-0',
        tool: 'shipments_list',
        args: { date_from: '2025-10-05', date_to: '2025-10-12', limit: 100 },
        deps: [],
        parameters: { parallel: false },
      },
    ]);
    expect(parsed.plan.planned_tasks?.[0]).toMatchObject({ execution_type: 'tool', description: 'Call shipments_list' });
    expect(parsed.plan.original_job_data).toEqual({
      query: 'Get shipments from last week',
      timestamp: '2025-10-12T06:00:00.000Z',
      estimated_duration_ms: 1500,
    });
    expect(parsed.job).toEqual({ task_description: 'Get shipments from last week' });
    expect(parsed.title).toBe('Get shipments from last week');
  });

  it('example 2 (filtered query): the filters become arguments; no metadata, no job', () => {
    const parsed = parse(fixture('example-2-filtered-query.json'));
    expect(shape(parsed)).toEqual([
      { id: 'step-0', tool: 'shipments_list', args: { has_contaminants: true, status: 'rejected', limit: 100 }, deps: [], parameters: { parallel: false } },
    ]);
    expect(parsed.plan.original_job_data).toBeNull();
    expect(parsed.job).toBeUndefined();
  });

  it('example 3 (location query): one facilities_list step', () => {
    expect(shape(parse(fixture('example-3-location-query.json')))).toEqual([
      { id: 'step-0', tool: 'facilities_list', args: { location: 'Berlin' }, deps: [], parameters: { parallel: false } },
    ]);
  });

  it('example 4 (multi-step): contaminants_list depends on shipments_list and keeps its template verbatim', () => {
    expect(shape(parse(fixture('example-4-multi-step.json')))).toEqual([
      { id: 'step-0', tool: 'shipments_list', args: { has_contaminants: true, limit: 100 }, deps: [], parameters: { parallel: false } },
      { id: 'step-1', tool: 'contaminants_list', args: { shipment_ids: '${step[0].data.*.id}' }, deps: ['step-0'], parameters: { parallel: false } },
    ]);
  });

  it('example 5 (nested data): facility ids flow from step 0 into step 1 alongside fixed dates', () => {
    expect(shape(parse(fixture('example-5-nested-data.json')))).toEqual([
      { id: 'step-0', tool: 'facilities_list', args: { location: 'Hannover' }, deps: [], parameters: { parallel: false } },
      {
        id: 'step-1',
        tool: 'contaminants_list',
        args: { facility_id: '${step[0].data.*.id}', date_from: '2025-10-12', date_to: '2025-10-12' },
        deps: ['step-0'],
        parameters: { parallel: false },
      },
    ]);
  });

  it('example 6 (parallel): three independent steps flagged parallel', () => {
    expect(shape(parse(fixture('example-6-parallel.json')))).toEqual([
      { id: 'step-0', tool: 'shipments_list', args: { limit: 100 }, deps: [], parameters: { parallel: true } },
      { id: 'step-1', tool: 'facilities_list', args: {}, deps: [], parameters: { parallel: true } },
      { id: 'step-2', tool: 'inspections_list', args: { limit: 100 }, deps: [], parameters: { parallel: true } },
    ]);
  });

  it('example 7 (3-step chain): facilities → shipments → contaminants', () => {
    expect(shape(parse(fixture('example-7-three-step-chain.json')))).toEqual([
      { id: 'step-0', tool: 'facilities_list', args: { location: 'Berlin' }, deps: [], parameters: {} },
      { id: 'step-1', tool: 'shipments_list', args: { facility_id: '${step[0].data.*.id}' }, deps: ['step-0'], parameters: {} },
      { id: 'step-2', tool: 'contaminants_list', args: { shipment_ids: '${step[1].data.*.id}' }, deps: ['step-1'], parameters: {} },
    ]);
  });

  it('multi-step planning (transcribed): shipments_list filters on step 0’s facilities', () => {
    expect(shape(parse(fixture('multi-step-planning.json')))).toEqual([
      { id: 'step-0', tool: 'facilities_list', args: { location: 'Berlin' }, deps: [], parameters: {} },
      { id: 'step-1', tool: 'shipments_list', args: { facility_id: '${step[0].data.*.id}', has_contaminants: true }, deps: ['step-0'], parameters: {} },
    ]);
  });

  it('parallel optimisation (transcribed): three parallel steps without params', () => {
    expect(shape(parse(fixture('parallel-optimization.json'))).map((t) => [t.tool, t.args, t.deps, t.parameters])).toEqual([
      ['shipments_list', {}, [], { parallel: true }],
      ['facilities_list', {}, [], { parallel: true }],
      ['inspections_list', {}, [], { parallel: true }],
    ]);
  });

  it('parameter extraction (transcribed): dates and destination as arguments', () => {
    expect(shape(parse(fixture('parameter-extraction.json')))).toEqual([
      { id: 'step-0', tool: 'shipments_list', args: { date_from: '2025-10-01', date_to: '2025-10-10', destination: 'Hannover' }, deps: [], parameters: {} },
    ]);
  });

  it('the unit-test mock plan: one step with empty params', () => {
    expect(shape(parse(fixture('unit-test-mock.json')))).toEqual([{ id: 'step-0', tool: 'shipments_list', args: {}, deps: [], parameters: {} }]);
  });

  it.each([
    ['multi-step-planning.seed.txt'],
    ['parallel-optimization.seed.txt'],
    ['parameter-extraction.seed.txt'],
  ])('refuses the seed’s JavaScript-literal %s as written, at its first unquoted key', (name) => {
    const error = errorOf(() => parse(fixture(name)));
    expect(error.location).toBe('line 2, column 1');
    expect(error.detail).toMatch(/^not valid JSON/);
  });

  it('every JSON example exports back to itself (params written out where the seed left them implicit, an empty depends_on left out, the time of export where metadata has no timestamp, an empty query where it has none)', () => {
    for (const name of jsonFixtures(FIXTURES)) {
      const source = JSON.parse(fixture(name)) as { steps: Array<Record<string, unknown>>; metadata?: Record<string, unknown> };
      const expected = {
        ...source,
        metadata: { timestamp: EXPORTED_AT, query: '', ...source.metadata },
        steps: source.steps.map(({ depends_on, ...s }) => ({ params: {}, ...s, ...(Array.isArray(depends_on) && depends_on.length > 0 ? { depends_on } : {}) })),
      };
      const { text, dropped } = exported(parse(fixture(name)));
      expect(JSON.parse(text), name).toEqual(expected);
      expect(dropped, name).toEqual([]);
    }
  });

  it("every example's export passes clear-ai-v2's PlanSchema", () => {
    const names = jsonFixtures(FIXTURES);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const { text } = exported(parse(fixture(name)));
      expect(ClearAiPlanSchema.safeParse(JSON.parse(text)).error, name).toBeUndefined();
    }
  });
});

describe('planner-agent: dependencies from templates', () => {
  it('adds a dependency for every ${step[i]…} anywhere in params, as the seed’s analysis does, deduplicated', () => {
    const parsed = parse(
      JSON.stringify({
        steps: [
          { tool: 'facilities_list', params: {} },
          { tool: 'shipments_list', params: {} },
          {
            tool: 'report',
            params: {
              title: 'Facilities ${step[0].data[0].facility.name} and ${step[1].data[0].id}',
              filters: { ids: ['${step[1].data.*.id}'], nested: [{ deep: '${step[0].data.*.facility.id}' }] },
            },
            depends_on: [1],
          },
        ],
      }),
    );
    expect(parsed.plan.planned_tasks?.[2].dependencies).toEqual(['step-0', 'step-1']);
  });

  it('accepts forward references and keeps the graph', () => {
    const parsed = parse(JSON.stringify({ steps: [{ tool: 'b', params: { x: '${step[1].data}' } }, { tool: 'a', params: {} }] }));
    expect(shape(parsed).map((t) => [t.id, t.deps])).toEqual([
      ['step-0', ['step-1']],
      ['step-1', []],
    ]);
  });
});

describe('planner-agent: serialize', () => {
  it('puts steps in dependency order and re-points depends_on and templates to the new indices', () => {
    const parsed = parse(
      JSON.stringify({
        steps: [
          { tool: 'summarise', params: { shipments: '${step[2].data.*.id}', note: 'from ${step[1].data[0].name}' }, depends_on: [1] },
          { tool: 'facilities_list', params: { location: 'Berlin' } },
          { tool: 'shipments_list', params: { facility_id: '${step[1].data.*.id}' }, parallel: false },
        ],
      }),
    );
    const { text, dropped } = exported(parsed);
    expect(JSON.parse(text)).toEqual({
      metadata: { timestamp: EXPORTED_AT, query: '' },
      steps: [
        { tool: 'facilities_list', params: { location: 'Berlin' } },
        { tool: 'shipments_list', params: { facility_id: '${step[0].data.*.id}' }, depends_on: [0], parallel: false },
        { tool: 'summarise', params: { shipments: '${step[1].data.*.id}', note: 'from ${step[0].data[0].name}' }, depends_on: [0, 1] },
      ],
    });
    expect(dropped).toEqual(['task ids: steps are known by position, so importing this file renames step-1 → step-0, step-2 → step-1, step-0 → step-2']);
  });

  it('stamps metadata.timestamp with the time of export when the plan has none (and an empty query without a job description), and keeps the plan’s own', () => {
    const plan = { planned_tasks: [{ task_id: 'step-0', execution_type: 'tool', tool_id: 'a' }] };
    const stamped = JSON.parse(serialize(doc({ plan }), { now }).text) as { metadata: Record<string, unknown> };
    expect(stamped.metadata).toEqual({ timestamp: EXPORTED_AT, query: '' });
    const own = { ...plan, original_job_data: { timestamp: '2025-10-12T06:00:00.000Z' } };
    expect(JSON.parse(serialize(doc({ plan: own }), { now }).text)).toMatchObject({ metadata: { timestamp: '2025-10-12T06:00:00.000Z' } });
  });

  it('keeps the plan’s order when it already is a topological one', () => {
    const tasks: PlannerTaskInput[] = [
      { task_id: 'step-0', execution_type: 'tool', tool_id: 'a' },
      { task_id: 'step-1', execution_type: 'tool', tool_id: 'b' },
      { task_id: 'step-2', execution_type: 'tool', tool_id: 'c', dependencies: ['step-0'] },
    ];
    const steps = (JSON.parse(serialize(doc({ plan: { planned_tasks: tasks } })).text) as { steps: Array<{ tool: string }> }).steps;
    expect(steps.map((s) => s.tool)).toEqual(['a', 'b', 'c']);
  });

  it('writes the job description as metadata.query and reports what a step cannot carry', () => {
    const { text, dropped } = serialize(
      doc({
        job: { task_description: 'Weekly contamination report', job_goal: { kpi: 'rate' } },
        plan: {
          status: 'in_progress',
          task_input_data: { region: 'north' },
          original_job_data: { timestamp: '2025-10-12T06:00:00.000Z' },
          planned_tasks: [
            { task_id: 'fetch', execution_type: 'tool', tool_id: 'shipments_list', description: 'Fetch last week', arguments: { limit: 5 } },
            {
              task_id: 'judge',
              execution_type: 'agent',
              agent_id: 'risk-analyst',
              instructions: 'Rank by risk',
              convertor_code: 'return x',
              estimate_data: { latency_ms: 900 },
              mark_replan: true,
              dependencies: ['fetch', 'ghost'],
              parameters: { parallel: false, sub_type: 'agents', depends_on: [9] },
            },
          ],
        },
      }),
    );
    expect(JSON.parse(text)).toEqual({
      steps: [
        { tool: 'shipments_list', description: 'Fetch last week', params: { limit: 5 } },
        { tool: 'risk-analyst', params: {}, depends_on: [0], parallel: false, sub_type: 'agents' },
      ],
      metadata: { timestamp: '2025-10-12T06:00:00.000Z', query: 'Weekly contamination report' },
    });
    expect(dropped).toEqual([
      'task judge: dependency on ghost, which is not in the plan',
      'task judge: execution_type "agent" (written as a tool step calling "risk-analyst"), tool_id (none; wrote "risk-analyst"), agent_id, parameters.depends_on (the step\'s own "depends_on" has that name), instructions, convertor_code, estimate_data, mark_replan',
      'task ids: steps are known by position, so importing this file renames fetch → step-0, judge → step-1',
      "plan: original_job_data gains metadata.query, the job's task description",
      'plan: task_input_data, status "in_progress"',
      'job: job_goal',
    ]);
  });

  it('reports templates naming no task, and dependencies that only a template creates', () => {
    const { text, dropped } = serialize(
      doc({
        plan: {
          planned_tasks: [
            { task_id: 'step-0', execution_type: 'tool', tool_id: 'a' },
            { task_id: 'step-1', execution_type: 'tool', tool_id: 'b', arguments: { x: '${step[0].data}', y: '${step[5].data}' } },
          ],
        },
      }),
    );
    expect((JSON.parse(text) as { steps: unknown[] }).steps[1]).toEqual({ tool: 'b', params: { x: '${step[0].data}', y: '${step[5].data}' }, depends_on: [0] });
    expect(dropped).toEqual([
      'task step-1: arguments.x: ${step[0]…} makes it depend on step-0, which the plan does not list as a dependency',
      'task step-1: arguments.y: ${step[5]…} names task step-5, which is not in the plan; written unchanged',
    ]);
  });

  it('refuses a cyclic plan, naming the cycle', () => {
    const error = errorOf(() =>
      serialize(
        doc({
          plan: {
            planned_tasks: [
              { task_id: 'a', execution_type: 'tool', tool_id: 'x', dependencies: ['b'] },
              { task_id: 'b', execution_type: 'tool', tool_id: 'y', dependencies: ['a'] },
            ],
          },
        }),
      ),
    );
    expect(error.location).toBe('planned_tasks');
    expect(error.detail).toMatch(/^cycle (a → b → a|b → a → b)/);
  });
});

describe('planner-agent: malformed input', () => {
  it.each([
    ['truncated JSON', '{\n  "steps": [\n    { "tool": "a",', 'line 3, column 19', /^not valid JSON/],
    ['a trailing comma', '{"steps": [{"tool": "a",}]}', 'line 1, column 25', /^not valid JSON/],
    ['not an object', '[1, 2]', '(root)', /expected object/],
    ['no steps', '{}', 'steps', /expected array/],
    ['no step at all', '{"steps": []}', 'steps', /at least one step/],
    ['a tool that is not a string', '{"steps": [{"tool": "a"}, {"tool": 7}]}', 'steps[1].tool', /expected string/],
    ['params that are not an object', '{"steps": [{"tool": "a", "params": [1]}]}', 'steps[0].params', /expected record/],
    ['depends_on that is not an array', '{"steps": [{"tool": "a", "depends_on": 0}]}', 'steps[0].depends_on', /expected array/],
    ['a negative index', '{"steps": [{"tool": "a", "depends_on": [-1]}]}', 'steps[0].depends_on[0]', /expected number to be >=0/],
    ['parallel that is not a boolean', '{"steps": [{"tool": "a", "parallel": "yes"}]}', 'steps[0].parallel', /expected boolean/],
    [
      'an index past the last step',
      '{"steps": [{"tool": "a"}, {"tool": "b"}, {"tool": "c"}, {"tool": "d", "depends_on": [7]}]}',
      'steps[3].depends_on[0]',
      /^step 7 does not exist \(the plan has steps 0 to 3\)$/,
    ],
    ['a step depending on itself', '{"steps": [{"tool": "a"}, {"tool": "b", "depends_on": [1]}]}', 'steps[1].depends_on[0]', /^step 1 depends on itself$/],
    [
      'a template naming a missing step',
      '{"steps": [{"tool": "a"}, {"tool": "b", "params": {"filter": {"ids": ["${step[4].data.*.id}"]}}}]}',
      'steps[1].params.filter.ids[0]',
      /^template \$\{step\[4\]…\} names step 4, which does not exist/,
    ],
    ['a template naming its own step', '{"steps": [{"tool": "a", "params": {"x": "${step[0].data}"}}]}', 'steps[0].params.x', /own result/],
    ['a malformed template', '{"steps": [{"tool": "a"}, {"tool": "b", "params": {"x": "${step[first].id}"}}]}', 'steps[1].params.x', /malformed template/],
    [
      'a cycle through depends_on',
      '{"steps": [{"tool": "a"}, {"tool": "b", "depends_on": [2]}, {"tool": "c", "depends_on": [1]}]}',
      'steps',
      /^cycle step-1 → step-2 → step-1$/,
    ],
    [
      'a cycle through templates',
      '{"steps": [{"tool": "a", "params": {"x": "${step[2].id}"}}, {"tool": "b", "depends_on": [0]}, {"tool": "c", "params": {"y": "${step[1].id}"}}]}',
      'steps',
      /^cycle step-0 → step-1 → step-2 → step-0$/,
    ],
  ])('refuses %s with its location', (_what, text, location, detail) => {
    const error = errorOf(() => parse(text));
    expect(error.format).toBe('planner-agent');
    expect(error.location).toBe(location);
    expect(error.detail).toMatch(detail);
  });
});

describe('planner-agent: detect', () => {
  it.each(jsonFixtures(FIXTURES))('recognises the seed 001 example %s', (name) => {
    expect(detect(fixture(name))).toBe(true);
  });

  it.each(jsonFixtures(OTHER_FIXTURES))('does not claim the seed 002 example %s', (name) => {
    expect(detect(readFixture(OTHER_FIXTURES, name))).toBe(false);
  });

  it.each([
    ['{}', '{}'],
    ['garbage', 'garbage'],
    ['empty', ''],
    ['no steps', '{"steps": []}'],
    ['a TaskData plan', '{"planned_tasks": [{"task_id": "a", "tool_id": "x"}]}'],
    ['steps that are not tool calls', '{"steps": [{"name": "a"}], "tool": 1}'],
  ])('says no to %s', (_what, text) => {
    expect(detect(text)).toBe(false);
  });

  it('claims broken JSON that looks like a plan, so parse can say where it breaks', () => {
    expect(detect(fixture('example-4-multi-step.json').slice(0, 120))).toBe(true);
  });
});

// Random valid plans: steps in a random array order over a random DAG, each edge
// expressed by depends_on, by a template somewhere in params, or both. A `label`
// step field (carried in parameters) lets the test follow a step across reordering.
const KEY = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
const Edge = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('depends_on', 'template', 'nested-template', 'both'));

const PlanArbitrary = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc
    .record({
      // rank → array position: rank order is the DAG's topological order.
      positions: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      edges: fc.array(Edge, { maxLength: 14 }),
      tools: fc.array(fc.constantFrom('shipments_list', 'facilities_list', 'contaminants_list', 'inspections_list'), { minLength: n, maxLength: n }),
      params: fc.array(fc.dictionary(KEY, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), { minLength: n, maxLength: n }),
      parallel: fc.array(fc.option(fc.boolean(), { nil: undefined }), { minLength: n, maxLength: n }),
      query: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    })
    .map(({ positions, edges, tools, params, parallel, query }) => {
      const steps = positions.map(() => ({}) as Record<string, unknown>);
      const expected = new Map<string, Set<string>>();
      for (let rank = 0; rank < n; rank++) {
        const at = positions[rank];
        const step: Record<string, unknown> = { tool: tools[rank], params: { ...params[rank] }, label: `s${rank}` };
        if (parallel[rank] !== undefined) step.parallel = parallel[rank];
        steps[at] = step;
        expected.set(`s${rank}`, new Set());
      }
      for (const [a, b, how] of edges) {
        const [from, to] = [a % n, b % n].sort((x, y) => x - y);
        if (from === to) continue;
        const step = steps[positions[to]];
        const index = positions[from];
        if (how === 'depends_on' || how === 'both') step.depends_on = [...((step.depends_on as number[]) ?? []), index];
        const params = step.params as Record<string, unknown>;
        if (how === 'template' || how === 'both') params[`ref_${from}_${Object.keys(params).length}`] = `\${step[${index}].data.*.id}`;
        if (how === 'nested-template') params[`nested_${Object.keys(params).length}`] = { list: ['x', `ids: \${step[${index}].data[0].id}`] };
        expected.get(`s${to}`)!.add(`s${from}`);
      }
      const plan = query === undefined ? { steps } : { steps, metadata: { query } };
      return { text: JSON.stringify(plan), expected };
    }),
);

const labelOf = (t: PlannerTaskInput) => String(t.parameters?.label);

/** Tasks keyed by label, with dependencies and step templates expressed as labels. */
function byLabel(parsed: ParsedPlan) {
  const tasks = parsed.plan.planned_tasks ?? [];
  const label = new Map(tasks.map((t) => [t.task_id!, labelOf(t)]));
  const relabel = (value: unknown): unknown =>
    typeof value === 'string'
      ? value.replace(/\$\{step\[(\d+)\]/g, (_m, k: string) => `\${step[${label.get(`step-${k}`)}]`)
      : Array.isArray(value)
        ? value.map(relabel)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, relabel(v)]))
          : value;
  return new Map(
    tasks.map((t) => [
      labelOf(t),
      { tool: t.tool_id, args: relabel(t.arguments), deps: new Set((t.dependencies ?? []).map((d) => label.get(d))), parameters: t.parameters },
    ]),
  );
}

describe('planner-agent: round trip', () => {
  it('parse → serialize → parse keeps every step, its tool, params and dependencies', () => {
    fc.assert(
      fc.property(PlanArbitrary, ({ text, expected }) => {
        const first = parse(text);
        const firstTasks = byLabel(first);
        expect(new Map([...firstTasks].map(([k, t]) => [k, t.deps]))).toEqual(expected);

        const { text: out, dropped } = exported(first);
        // Renames, and the timestamp metadata without one gains, are all an export of a parsed plan reports.
        expect(dropped.filter((d) => !d.startsWith('task ids:') && !d.includes('gains metadata.timestamp') && !d.includes('gains metadata.query'))).toEqual([]);
        // What seed 001's own validatePlan accepts.
        expect(ClearAiPlanSchema.safeParse(JSON.parse(out)).error).toBeUndefined();
        const second = parse(out);
        expect(byLabel(second)).toEqual(firstTasks);
        expect(second.job).toEqual(first.job);

        // The seed's shape: every reference points backwards.
        const steps = (JSON.parse(out) as { steps: Array<{ depends_on?: number[]; params: unknown }> }).steps;
        steps.forEach((step, i) => {
          expect(step.depends_on, "an empty depends_on is left out").not.toEqual([]);
          expect((step.depends_on ?? []).every((k) => k < i)).toBe(true);
          for (const m of JSON.stringify(step.params).matchAll(/\$\{step\[(\d+)\]/g)) expect(Number(m[1])).toBeLessThan(i);
        });
        // Exporting an export changes nothing.
        expect(exported(second).text).toBe(out);
      }),
      { numRuns: 200 },
    );
  });

  it('TaskData with any ids → serialize → parse keeps the dependency structure', () => {
    const Arbitrary = fc.integer({ min: 1, max: 10 }).chain((n) =>
      fc.record({
        ids: fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,10}$/), { minLength: n, maxLength: n }),
        edges: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 20 }),
      }),
    );
    fc.assert(
      fc.property(Arbitrary, ({ ids, edges }) => {
        const deps = ids.map(() => new Set<string>());
        for (const [a, b] of edges) {
          const [from, to] = [a % ids.length, b % ids.length].sort((x, y) => x - y);
          if (from !== to) deps[to].add(ids[from]);
        }
        // Listed in reverse so the export has to reorder.
        const tasks = ids.map((id, i) => ({ task_id: id, execution_type: 'tool', tool_id: `tool_${i}`, dependencies: [...deps[i]], parameters: { label: id } })).reverse();
        const parsed = parse(serialize(doc({ plan: { planned_tasks: tasks } })).text);
        const back = byLabel(parsed);
        expect(back.size).toBe(ids.length);
        ids.forEach((id, i) => expect(back.get(id)?.deps).toEqual(deps[i]));
      }),
      { numRuns: 200 },
    );
  });
});
