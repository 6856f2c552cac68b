// Seed 002's example plans read as the seed describes them (edges from †state data
// flow, †input as job inputs), exports that can and cannot carry a dependency, round
// trips of random call graphs, and the errors a broken call list raises.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlanDocument, type PlanDocumentInput, type PlannerTaskInput } from '@/lib/plan';
import { FormatError, type ParsedPlan } from './format';
import { errorThrownBy, jsonFixtureNames, readFixture, toolShape } from './test-support';
import { parseStateCalls, stateCallsFormat } from './state-calls';

const FIXTURES = 'state-calls';
const OTHER_FIXTURES = 'planner-agent';
const fixture = (name: string) => readFixture(FIXTURES, name);
const jsonFixtures = jsonFixtureNames;

const { parse, serialize, detect } = stateCallsFormat;

const shape = toolShape;

const errorOf = (fn: () => unknown) => errorThrownBy(FormatError, fn);

const doc = (input: PlanDocumentInput) => PlanDocument.parse(input);
const exported = (parsed: ParsedPlan) => serialize(doc({ plan: parsed.plan, job: parsed.job }));

describe('state-calls: seed 002 examples', () => {
  it('profile summary: summarizeProfile reads what fetchUserProfile writes', () => {
    const parsed = parse(fixture('profile-summary.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'fetchUserProfile', args: { userName: 'Alice' }, deps: [], parameters: { _outputPath: '†state.userProfileData' } },
      { id: 'call-1', tool: 'summarizeProfile', args: { profile: '†state.userProfileData' }, deps: ['call-0'], parameters: { _outputPath: '†state.profileSummary' } },
    ]);
    expect(parsed.plan.planned_tasks?.[0]).toMatchObject({ execution_type: 'tool', description: 'Call fetchUserProfile' });
    expect(parsed.plan.task_input_data).toEqual({});
  });

  it('refund solution: two independent calls reading only †input, recorded as job inputs', () => {
    const parsed = parse(fixture('refund-solution.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'checkBillingHistory', args: { customerId: '†input.customerId' }, deps: [], parameters: {} },
      { id: 'call-1', tool: 'issueRefund', args: { customerId: '†input.customerId', amount: '†input.amount' }, deps: [], parameters: {} },
    ]);
    expect(parsed.plan.task_input_data).toEqual({ input_paths: ['†input.amount', '†input.customerId'] });
    expect(parsed.plan.output_data).toEqual({});
  });

  it('refund context: the Plan message’s calls, with the live State kept as task input', () => {
    const parsed = parse(fixture('refund-context.json'));
    expect(shape(parsed).map((t) => [t.tool, t.deps])).toEqual([
      ['checkBillingHistory', []],
      ['issueRefund', []],
    ]);
    expect(parsed.plan.task_input_data).toEqual({
      input_paths: ['†input.amount', '†input.customerId'],
      state: { billingHistory: { orders: 5, lastChargeback: '2025-09-10' } },
    });
  });

  it('refund follow-up solution: one issueRefund call, with the solution’s output as output_data', () => {
    const parsed = parse(fixture('refund-next-solution.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'issueRefund', args: { customerId: '†input.customerId', amount: '†input.amount' }, deps: [], parameters: {} },
    ]);
    expect(parsed.plan.output_data).toEqual({ confirmationId: 'refund_xyz789', message: 'The refund has been processed successfully.' });
  });

  it('adjusting a plan (transcribed context): bookFlight and bookHotel, the Input values and Tool messages kept', () => {
    const parsed = parse(fixture('adjusting-context.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'bookFlight', args: { destination: '†input.destination' }, deps: [], parameters: {} },
      { id: 'call-1', tool: 'bookHotel', args: { destination: '†input.destination' }, deps: [], parameters: {} },
    ]);
    expect(parsed.plan.task_input_data).toEqual({
      input_paths: ['†input.destination'],
      input: { destination: 'Berlin', instruction: "Actually, I'll be traveling with my dog." },
    });
    expect(parsed.plan.original_job_data).toEqual({
      context: [
        { type: 'tool', tool: 'Tool.bookFlight' },
        { type: 'tool', tool: 'Tool.bookHotel' },
        { type: 'tool', tool: 'Tool.findPetFriendlyHotel' },
      ],
    });
  });

  it('adjusting a plan (solution): bookFlight and findPetFriendlyHotel, independent', () => {
    expect(shape(parse(fixture('adjusting-solution.json'))).map((t) => [t.tool, t.args, t.deps])).toEqual([
      ['bookFlight', { destination: '†input.destination' }, []],
      ['findPetFriendlyHotel', { destination: '†input.destination' }, []],
    ]);
  });

  it('handling failure (initial solution): confirmOrder reads the receipt of a call that writes receipt || error', () => {
    expect(shape(parse(fixture('failure-initial-solution.json')))).toEqual([
      { id: 'call-0', tool: 'processPayment', args: { amount: '†input.amount' }, deps: [], parameters: { _outputPath: '†state.receipt || †state.error' } },
      { id: 'call-1', tool: 'confirmOrder', args: { receipt: '†state.receipt' }, deps: ['call-0'], parameters: {} },
    ]);
  });

  it('handling failure (transcribed next context): the same graph, with the error State kept', () => {
    const parsed = parse(fixture('failure-next-context.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'processPayment', args: {}, deps: [], parameters: { _outputPath: '†state.receipt || †state.error' } },
      { id: 'call-1', tool: 'confirmOrder', args: { receipt: '†state.receipt' }, deps: ['call-0'], parameters: {} },
    ]);
    expect(parsed.plan.task_input_data).toEqual({ state: { error: { code: 'card_declined', message: 'Your card was declined.' } } });
  });

  it('handling failure (replanned): reportFailure reads †state.error from the live State, recorded as expected state', () => {
    const text = fixture('failure-replanned-solution.json');
    const error = errorOf(() => parseStateCalls(text, { unwrittenState: 'error' }));
    expect([error.location, error.detail]).toEqual(['calls[0].error', 'reads †state.error, which no call writes']);

    const parsed = parse(text);
    expect(shape(parsed)).toEqual([{ id: 'call-0', tool: 'reportFailure', args: { error: '†state.error' }, deps: [], parameters: {} }]);
    expect(parsed.plan.task_input_data).toEqual({ state_paths: ['†state.error'] });
    expect(parsed.plan.output_data).toEqual({ status: 'Failed' });
  });

  it('schema-guided solution (transcribed): detectLanguage → isEnglish → translateText', () => {
    const parsed = parse(fixture('schema-guided-solution.json'));
    expect(shape(parsed)).toEqual([
      { id: 'call-0', tool: 'detectLanguage', args: { text: '†input.text' }, deps: [], parameters: { _outputPath: '†state.language' } },
      { id: 'call-1', tool: 'isEnglish', args: { language: '†state.language' }, deps: ['call-0'], parameters: { _outputPath: '†state.isEnglish' } },
      {
        id: 'call-2',
        tool: 'translateText',
        args: { text: '†input.text', isEnglish: '†state.isEnglish' },
        deps: ['call-1'],
        parameters: { _outputPath: '†state.translatedText' },
      },
    ]);
    expect(parsed.plan.task_input_data).toEqual({ input_paths: ['†input.text'] });
  });

  it('weather suggestion (transcribed from the diagram): both branches write the suggestion, so the presenter waits for both', () => {
    expect(shape(parse(fixture('weather-suggestion.json'))).map((t) => [t.tool, t.deps])).toEqual([
      ['getWeather', []],
      ['isItSunny', ['call-0']],
      ['findPark', ['call-1']],
      ['findMovie', ['call-1']],
      ['presentSuggestion', ['call-2', 'call-3']],
    ]);
  });

  it('the schema-guided context is not a plan: it holds no Plan message', () => {
    const error = errorOf(() => parse(fixture('schema-guided-context.json')));
    expect(error.detail).toMatch(/no Plan message/);
  });

  it.each([
    ['adjusting-context.seed.txt', 'line 2, column 5'],
    ['schema-guided-solution.seed.txt', 'line 6, column 7'],
  ])('refuses the seed’s non-JSON %s as written, at its first non-JSON token', (name, location) => {
    const error = errorOf(() => parse(fixture(name)));
    expect(error.location).toBe(location);
    expect(error.detail).toMatch(/^not valid JSON/);
  });

  it('refuses the seed’s commented failure context as written (Node gives no position for this one)', () => {
    expect(errorOf(() => parse(fixture('failure-next-context.seed.txt'))).detail).toMatch(/^not valid JSON: Unexpected token '\/'/);
  });

  it('every example exports as its bare call list, reporting what only an envelope carried', () => {
    const expected: Record<string, string[]> = {
      'adjusting-context.json': ['plan: task_input_data.input, original_job_data'],
      'failure-next-context.json': ['plan: task_input_data.state'],
      'refund-context.json': ['plan: task_input_data.state'],
      'refund-next-solution.json': ['plan: output_data'],
    };
    for (const name of jsonFixtures(FIXTURES).filter((n) => n !== 'schema-guided-context.json' && n !== 'failure-replanned-solution.json')) {
      const source = JSON.parse(fixture(name)) as unknown;
      const calls = Array.isArray(source)
        ? (source.find((m: { type?: string }) => m.type === 'plan')?.plan ?? source)
        : (source as { calls: unknown }).calls;
      const { text, dropped } = exported(parse(fixture(name)));
      expect(JSON.parse(text), name).toEqual(calls);
      expect(dropped, name).toEqual(expected[name] ?? []);
    }
  });
});

describe('state-calls: data flow', () => {
  it('finds reads inside strings, arrays and nested objects, and matches paths by prefix either way', () => {
    const parsed = parse(
      JSON.stringify([
        { _tool: 'load', _outputPath: '†state.order' },
        { _tool: 'part', _outputPath: '†state.customer.address' },
        { _tool: 'other', _outputPath: '†state.orders' },
        {
          _tool: 'use',
          text: 'Ship †state.order.items[0].sku to the customer',
          list: [{ deep: ['†state.customer'] }],
          when: '†input.date',
        },
      ]),
    );
    // `order.items[0].sku` needs the writer of `order`; all of `customer` waits for the writer of `customer.address`;
    // `orders` is a different name, not an extension of `order`.
    expect(parsed.plan.planned_tasks?.[3].dependencies).toEqual(['call-0', 'call-1']);
    expect(parsed.plan.task_input_data).toEqual({ input_paths: ['†input.date'] });
  });

  it('does not care about array order: a reader may come before its writer', () => {
    expect(shape(parse('[{"_tool": "b", "x": "†state.a"}, {"_tool": "a", "_outputPath": "†state.a"}]')).map((t) => t.deps)).toEqual([['call-1'], []]);
  });

  it('lets a State message in the context supply what no call writes', () => {
    const parsed = parse(JSON.stringify([{ type: 'state', error: { code: 'x' } }, { type: 'plan', plan: [{ _tool: 'reportFailure', error: '†state.error.code' }] }]));
    expect(parsed.plan.task_input_data).toEqual({ state_paths: ['†state.error.code'], state: { error: { code: 'x' } } });
  });

  it('reads a bare Plan message', () => {
    expect(shape(parse('{"type": "plan", "plan": [{"_tool": "a"}]}')).map((t) => t.tool)).toEqual(['a']);
  });
});

describe('state-calls: serialize', () => {
  it('orders calls by data flow and writes _outputPath last, from parameters', () => {
    const { text, dropped } = exported(
      parse(
        JSON.stringify([
          { _tool: 'summarizeProfile', profile: '†state.userProfileData', _outputPath: '†state.profileSummary' },
          { _tool: 'fetchUserProfile', userName: 'Alice', _outputPath: '†state.userProfileData' },
        ]),
      ),
    );
    expect(text).toBe(
      `${JSON.stringify(
        [
          { _tool: 'fetchUserProfile', userName: 'Alice', _outputPath: '†state.userProfileData' },
          { _tool: 'summarizeProfile', profile: '†state.userProfileData', _outputPath: '†state.profileSummary' },
        ],
        null,
        2,
      )}\n`,
    );
    expect(dropped).toEqual(['task ids: calls are known by position, so importing this file renames call-1 → call-0, call-0 → call-1']);
  });

  it('cannot carry a dependency without data flow: it synthesises an output path for the prerequisite and reports the dependency', () => {
    const { text, dropped } = serialize(
      doc({
        plan: {
          planned_tasks: [
            { task_id: 'fetch', execution_type: 'tool', tool_id: 'fetchOrders', description: 'Call fetchOrders' },
            { task_id: 'notify', execution_type: 'tool', tool_id: 'notify', arguments: { to: 'ops' }, dependencies: ['fetch'] },
          ],
        },
      }),
    );
    expect(JSON.parse(text)).toEqual([
      { _tool: 'fetchOrders', _outputPath: '†state.fetch' },
      { _tool: 'notify', to: 'ops' },
    ]);
    expect(dropped).toEqual([
      'task fetch: parameters._outputPath gains †state.fetch, so the tasks depending on it can read it',
      'task notify: dependency on fetch (this format orders calls by data flow, and nothing it reads is written by fetch) (fetch now writes †state.fetch; read that to keep the order)',
      'task ids: calls are known by position, so importing this file renames fetch → call-0, notify → call-1',
    ]);
  });

  it('reports a read that makes a dependency the plan does not list, and one nobody writes', () => {
    const { dropped } = serialize(
      doc({
        plan: {
          planned_tasks: [
            { task_id: 'call-0', execution_type: 'tool', tool_id: 'a', parameters: { _outputPath: '†state.a' } },
            { task_id: 'call-1', execution_type: 'tool', tool_id: 'b', arguments: { x: '†state.a', y: ['†state.ghost'] } },
          ],
        },
      }),
    );
    expect(dropped).toEqual([
      'task call-1: arguments.x reads †state.a, which call-0 writes, so it will depend on call-0, which the plan does not list',
      'task call-1: arguments.y[0] reads †state.ghost, which no call writes; it must be in the live state when the plan runs',
    ]);
  });

  it('reports the task fields a call has no place for', () => {
    const { text, dropped } = serialize(
      doc({
        job: { task_description: 'Refund' },
        plan: {
          planned_tasks: [
            {
              task_id: 'call-0',
              execution_type: 'llm',
              function_id: 'gpt',
              description: 'Write the apology',
              instructions: 'Be kind',
              arguments: { _tool: 'clash', tone: 'warm' },
              parameters: { _outputPath: '†state.apology', temperature: 0.2 },
            },
          ],
        },
      }),
    );
    expect(JSON.parse(text)).toEqual([{ _tool: 'gpt', tone: 'warm', _outputPath: '†state.apology' }]);
    expect(dropped).toEqual([
      'task call-0: description, execution_type "llm" (written as a call to "gpt"), tool_id (none; wrote "gpt"), function_id, parameters.temperature, arguments._tool (the call\'s own meta-property), instructions',
      'job: task_description',
    ]);
  });

  it('refuses a cycle made of declared dependencies and data flow', () => {
    const error = errorOf(() =>
      serialize(
        doc({
          plan: {
            planned_tasks: [
              { task_id: 'a', execution_type: 'tool', tool_id: 'x', parameters: { _outputPath: '†state.a' }, dependencies: ['b'] },
              { task_id: 'b', execution_type: 'tool', tool_id: 'y', arguments: { in: '†state.a' } },
            ],
          },
        }),
      ),
    );
    expect(error.location).toBe('planned_tasks');
    expect(error.detail).toMatch(/^cycle (a → b → a|b → a → b)/);
  });
});

describe('state-calls: malformed input', () => {
  it.each([
    ['truncated JSON', '[\n  { "_tool": "a",\n    "x": "†sta', 'line 3, column 15', /^not valid JSON/],
    ['a missing comma', '[{"_tool": "a", "x": 1 2}]', 'line 1, column 24', /^not valid JSON/],
    ['a number', '42', '', /expected a list of tool calls/],
    ['calls that are not an array', '{"calls": {"_tool": "a"}}', 'calls', /expected array/],
    ['a call that is not an object', '[{"_tool": "a"}, "b"]', '[1]', /expected object/],
    ['a call without _tool', '[{"_tool": "a"}, {"x": 1}]', '[1]._tool', /expected string/],
    ['an empty _tool', '{"calls": [{"_tool": ""}]}', 'calls[0]._tool', /names its tool/],
    ['an _outputPath that is not a string', '[{"_tool": "a", "_outputPath": 3}]', '[0]._outputPath', /expected string/],
    ['an _outputPath outside †state', '[{"_tool": "a", "_outputPath": "†input.x"}]', '[0]._outputPath', /expected †state paths/],
    ['an _outputPath with an empty branch', '[{"_tool": "a", "_outputPath": "†state.x || "}]', '[0]._outputPath', /expected †state paths/],
    [
      'a read nobody writes',
      '[{"_tool": "a", "_outputPath": "†state.a"}, {"_tool": "b", "_outputPath": "†state.b"}, {"_tool": "c", "query": "†state.foo"}]',
      '[2].query',
      /^reads †state\.foo, which no call writes$/,
    ],
    ['a read only the reader writes', '[{"_tool": "count", "n": "†state.n", "_outputPath": "†state.n"}]', '[0].n', /^reads †state\.n, which only this call writes$/],
    ['a read deep in the arguments', '{"calls": [{"_tool": "a", "f": {"ids": [1, "x †state.nope y"]}}]}', 'calls[0].f.ids[1]', /reads †state\.nope/],
    [
      'a cycle',
      '[{"_tool": "a", "x": "†state.b", "_outputPath": "†state.a"}, {"_tool": "b", "x": "†state.a", "_outputPath": "†state.b"}]',
      '',
      /^cycle call-0 → call-1 → call-0/,
    ],
    [
      'a cycle inside a Plan message',
      '[{"type": "input"}, {"type": "plan", "plan": [{"_tool": "a", "x": "†state.a2", "_outputPath": "†state.a1"}, {"_tool": "b", "x": "†state.a1", "_outputPath": "†state.a2"}]}]',
      '[1].plan',
      /^cycle call-0 → call-1 → call-0/,
    ],
    ['two Plan messages', '[{"type": "plan", "plan": []}, {"type": "plan", "plan": []}]', '[1]', /one Plan message/],
    ['a context without a Plan message', '[{"type": "input", "x": 1}]', '', /no Plan message/],
  ])('refuses %s with its location (strict about unwritten state)', (_what, text, location, detail) => {
    const error = errorOf(() => parseStateCalls(text, { unwrittenState: 'error' }));
    expect(error.format).toBe('state-calls');
    expect(error.location).toBe(location);
    expect(error.detail).toMatch(detail);
  });
});

describe('state-calls: detect', () => {
  it.each(jsonFixtures(FIXTURES).filter((n) => n !== 'schema-guided-context.json'))('recognises the seed 002 example %s', (name) => {
    expect(detect(fixture(name))).toBe(true);
  });

  it.each(jsonFixtures(OTHER_FIXTURES))('does not claim the seed 001 example %s', (name) => {
    expect(detect(readFixture(OTHER_FIXTURES, name))).toBe(false);
  });

  it.each([
    ['{}', '{}'],
    ['garbage', 'garbage'],
    ['empty', ''],
    ['an empty list', '[]'],
    ['a context without a plan (seed 002’s schema-guided context)', fixture('schema-guided-context.json')],
    ['a planner plan mentioning _tool in its params', '{"steps": [{"tool": "a", "params": {"_tool": "x"}}]}'],
  ])('says no to %s', (_what, text) => {
    expect(detect(text)).toBe(false);
  });
});

// Random valid call graphs: calls in random array order over a random DAG. The
// writer of an edge writes †state.v<rank> (sometimes `|| †state.e<rank>`); the
// reader reads it whole, deeper, embedded in text, inside an array or a nested
// object, or reads the alternative. An `id` argument follows a call across reordering.
const KEY = fc.stringMatching(/^[a-z][a-z]{0,6}$/);
const READ_FORMS = ['whole', 'deeper', 'embedded', 'array', 'nested', 'alternative'] as const;
const noDagger = fc.jsonValue({ maxDepth: 2 }).filter((v) => !JSON.stringify(v).includes('†'));

const CallsArbitrary = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc
    .record({
      positions: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      edges: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...READ_FORMS)), { maxLength: 14 }),
      tools: fc.array(fc.constantFrom('fetch', 'summarise', 'translate', 'notify'), { minLength: n, maxLength: n }),
      args: fc.array(fc.dictionary(KEY, noDagger, { maxKeys: 3 }), { minLength: n, maxLength: n }),
      alternative: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      writesAnyway: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      inputs: fc.array(fc.option(fc.constantFrom('†input.q', '†input.user.id'), { nil: undefined }), { minLength: n, maxLength: n }),
    })
    .map(({ positions, edges, tools, args, alternative, writesAnyway, inputs }) => {
      const calls = positions.map(() => ({}) as Record<string, unknown>);
      const expected = new Map<string, Set<string>>();
      for (let rank = 0; rank < n; rank++) {
        // Random keys may be `id` or `input`, so the tracked ones are set after them.
        const call: Record<string, unknown> = { _tool: tools[rank], ...args[rank], id: `c${rank}` };
        if (inputs[rank]) call.input = inputs[rank];
        calls[positions[rank]] = call;
        expected.set(`c${rank}`, new Set());
      }
      const writes = (rank: number) => {
        calls[positions[rank]]._outputPath = alternative[rank] ? `†state.v${rank} || †state.e${rank}` : `†state.v${rank}`;
      };
      writesAnyway.forEach((w, rank) => w && writes(rank));
      edges.forEach(([a, b, form], k) => {
        const [from, to] = [a % n, b % n].sort((x, y) => x - y);
        if (from === to) return;
        writes(from);
        const reader = calls[positions[to]];
        const path = form === 'alternative' && alternative[from] ? `†state.e${from}` : `†state.v${from}`;
        reader[`r${k}`] =
          form === 'deeper'
            ? `${path}.items[0].id`
            : form === 'embedded'
              ? `Use ${path} here`
              : form === 'array'
                ? ['x', path]
                : form === 'nested'
                  ? { filter: { by: `${path}.name` } }
                  : path;
        expected.get(`c${to}`)!.add(`c${from}`);
      });
      return { text: JSON.stringify(calls), expected };
    }),
);

const idOf = (t: PlannerTaskInput) => String(t.arguments?.id);

function byId(parsed: ParsedPlan) {
  const tasks = parsed.plan.planned_tasks ?? [];
  const id = new Map(tasks.map((t) => [t.task_id!, idOf(t)]));
  return new Map(
    tasks.map((t) => [idOf(t), { tool: t.tool_id, args: t.arguments, deps: new Set((t.dependencies ?? []).map((d) => id.get(d))), parameters: t.parameters }]),
  );
}

describe('state-calls: round trip', () => {
  it('parse → serialize → parse keeps every call, its tool, arguments, output path and dependencies', () => {
    fc.assert(
      fc.property(CallsArbitrary, ({ text, expected }) => {
        const first = parse(text);
        const firstCalls = byId(first);
        expect(new Map([...firstCalls].map(([k, c]) => [k, c.deps]))).toEqual(expected);

        const { text: out, dropped } = exported(first);
        expect(dropped.filter((d) => !d.startsWith('task ids:'))).toEqual([]);
        const second = parse(out);
        expect(byId(second)).toEqual(firstCalls);
        expect(second.plan.task_input_data).toEqual(first.plan.task_input_data);

        // Written in an order where every writer precedes its readers.
        const tasks = second.plan.planned_tasks ?? [];
        tasks.forEach((t, i) => (t.dependencies ?? []).forEach((d) => expect(Number(d.slice('call-'.length))).toBeLessThan(i)));
        expect(exported(second).text).toBe(out);
      }),
      { numRuns: 200 },
    );
  });

  it('every dependency an export cannot carry, or adds, is named in dropped', () => {
    const Arbitrary = fc.integer({ min: 1, max: 8 }).chain((n) =>
      fc.record({
        declared: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 12 }),
        flows: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 12 }),
        n: fc.constant(n),
      }),
    );
    fc.assert(
      fc.property(Arbitrary, ({ declared, flows, n }) => {
        const pair = ([a, b]: [number, number]) => [a % n, b % n].sort((x, y) => x - y);
        const tasks = Array.from({ length: n }, (_, i) => ({
          task_id: `t${i}`,
          execution_type: 'tool',
          tool_id: 'x',
          arguments: { id: `t${i}` } as Record<string, unknown>,
          dependencies: [] as string[],
          parameters: {} as Record<string, unknown>,
        }));
        for (const [from, to] of declared.map(pair)) if (from !== to && !tasks[to].dependencies.includes(`t${from}`)) tasks[to].dependencies.push(`t${from}`);
        flows.map(pair).forEach(([from, to], k) => {
          if (from === to) return;
          tasks[from].parameters._outputPath = `†state.out${from}`;
          tasks[to].arguments[`in${k}`] = `†state.out${from}`;
        });
        const { text, dropped } = serialize(doc({ plan: { planned_tasks: tasks } }));
        const back = byId(parse(text));
        for (const task of tasks) {
          const now = back.get(task.task_id)!.deps;
          for (const dep of task.dependencies) {
            if (!now.has(dep)) expect(dropped).toContainEqual(expect.stringMatching(new RegExp(`^task ${task.task_id}: dependency on ${dep} `)));
          }
          for (const dep of now) {
            if (!task.dependencies.includes(dep!)) expect(dropped).toContainEqual(expect.stringMatching(new RegExp(`^task ${task.task_id}: .* so it will depend on ${dep},`)));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
