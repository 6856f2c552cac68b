import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { PlanDocument, type PlanDocumentInput, type PlannerTaskInput } from '@/lib/plan';
import { agentScopeFormat } from './agentscope';
import { cortexXmlFormat } from './cortex-xml';
import { FormatError, type ParsedPlan } from './format';
import { errorThrownBy, readFixture } from './test-support';

// Seed 003 prints its plans as Python calls, not XML; each fixture transcribes one of
// them with the seed's values verbatim and says in an XML comment what is reconstructed.
const fixture = (name: string) => readFixture('cortex-xml', name);
const agentScopeFixture = (name: string) => readFixture('agentscope', name);

const errorOf = (fn: () => unknown) => errorThrownBy(FormatError, fn);

const parse = (text: string) => cortexXmlFormat.parse(text);
const tasksOf = (parsed: ParsedPlan) => parsed.plan.planned_tasks ?? [];

/** What a Cortex step carries, per task, for exact comparisons. */
function steps(parsed: ParsedPlan) {
  return tasksOf(parsed).map((t) => ({
    id: t.task_id,
    agent: t.agent_id,
    action: t.parameters?.action,
    arguments: t.arguments,
    dependencies: t.dependencies,
    description: t.description,
  }));
}

const roundTrip = (parsed: ParsedPlan) => {
  const doc = PlanDocument.parse({ plan: parsed.plan, ...(parsed.job ? { job: parsed.job } : {}) });
  const out = cortexXmlFormat.serialize(doc);
  return { out, again: parse(out.text) };
};

describe('cortex-xml: seed 003 plans', () => {
  it("reads the planning prompt's own XML sample, placeholders and all", () => {
    const parsed = parse(fixture('prompt-sample.xml'));
    expect(steps(parsed)).toEqual([
      {
        id: '1',
        agent: 'Agent Role Name',
        action: 'specific_action_to_take',
        arguments: { key1: 'value1', key2: 'value2' },
        dependencies: [],
        description: 'Clear description of what this step accomplishes',
      },
      {
        id: '2',
        agent: 'Another Agent Role Name',
        action: 'another_action',
        arguments: { input: 'result_from_step_1' },
        dependencies: ['1'],
        description: 'This step depends on step 1 completion',
      },
    ]);
    expect(tasksOf(parsed).every((t) => t.execution_type === 'agent')).toBe(true);
    expect(parsed.title).toBe('{objective}');
    // "minutes" is not a number: kept as written, no numeric estimate invented.
    expect(parsed.job?.job_steerability_data).toEqual({ complexity: 'low|medium|high' });
    expect(parsed.plan.original_job_data).toEqual({
      source: 'cortex-xml',
      objective: '{objective}',
      complexity: 'low|medium|high',
      estimated_time: 'minutes',
    });
  });

  it('reads the module example (research AI trends) out of an LLM answer with prose and a fence', () => {
    const parsed = parse(fixture('research-ai-trends.answer.txt'));
    expect(parsed.title).toBe('Research AI trends and write a summary report');
    expect(parsed.job?.job_goal).toEqual({ objective: 'Research AI trends and write a summary report' });
    expect(steps(parsed)).toEqual([
      {
        id: '1',
        agent: 'Researcher',
        action: 'research',
        arguments: { topic: 'AI trends' },
        dependencies: [],
        description: 'Research current AI trends',
      },
      // Seed 003's PlanStep example, field for field.
      {
        id: '2',
        agent: 'Writer',
        action: 'write_draft',
        arguments: { topic: 'AI trends', input: 'result_from_step_1' },
        dependencies: ['1'],
        description: 'Write initial draft based on research findings',
      },
    ]);
  });

  it('reads the ExecutionPlan example (market analysis, high, 30 minutes): only research is ready first', () => {
    const parsed = parse(fixture('market-analysis.xml'));
    expect(parsed.title).toBe('Create a comprehensive market analysis');
    expect(parsed.job?.job_steerability_data).toEqual({ complexity: 'high', estimated_time_minutes: 30 });
    expect(steps(parsed).map((s) => [s.id, s.agent, s.action, s.dependencies])).toEqual([
      ['1', 'Researcher', 'research', []],
      ['2', 'Analyst', 'analyze', ['1']],
    ]);
    // get_next_steps(completed_steps=set()): the steps with no dependencies.
    expect(tasksOf(parsed).filter((t) => (t.dependencies ?? []).length === 0).map((t) => t.task_id)).toEqual(['1']);
  });

  it('reads the CortexPlanner example (data pipeline, analyst and engineer) with parallel first steps', () => {
    const parsed = parse(fixture('data-pipeline.xml'));
    expect(parsed.title).toBe('Build a data pipeline');
    expect(steps(parsed).map((s) => [s.id, s.agent, s.action, s.dependencies])).toEqual([
      ['1', 'Analyst', 'analyze', []],
      ['2', 'Analyst', 'analyze', []],
      ['3', 'Engineer', 'create', ['1', '2']],
    ]);
    expect(tasksOf(parsed)[2].arguments).toEqual({ sources: 'result_from_step_1', requirements: 'result_from_step_2' });
  });

  for (const name of ['prompt-sample.xml', 'research-ai-trends.answer.txt', 'market-analysis.xml', 'data-pipeline.xml']) {
    it(`${name}: is detected, and survives serialize → parse with nothing dropped`, () => {
      const text = fixture(name);
      expect(cortexXmlFormat.detect(text)).toBe(true);
      const parsed = parse(text);
      const { out, again } = roundTrip(parsed);
      expect(out.dropped).toEqual([]);
      expect(steps(again)).toEqual(steps(parsed));
      expect(again.title).toBe(parsed.title);
      expect(again.job).toEqual(parsed.job);
      expect(again.plan.original_job_data).toEqual(parsed.plan.original_job_data);
    });
  }
});

describe('cortex-xml: reading leniently what the seed reads', () => {
  it('takes the first <plan> element and ignores everything around it', () => {
    const text = 'Thinking...\n<plan><step id="1"><agent>A</agent></step></plan>\nand a second <plan><step id="9"/></plan>';
    expect(tasksOf(parse(text)).map((t) => t.task_id)).toEqual(['1']);
  });

  it('reads ids as integers ("01" is step 1) and tolerates spaces and empty pieces in dependencies', () => {
    const parsed = parse('<plan><step id=" 01 "/><step id="2"/><step id="3"><dependencies> 1 ,, 2, 1, </dependencies></step></plan>');
    expect(tasksOf(parsed).map((t) => [t.task_id, t.dependencies])).toEqual([
      ['1', []],
      ['2', []],
      ['3', ['1', '2']],
    ]);
  });

  it('accepts forward references, missing optional elements, comments, CDATA and character references', () => {
    const parsed = parse(`<plan id="p">
  <!-- a comment -->
  <step id="2"><dependencies>1</dependencies><description><![CDATA[a < b && c]]></description></step>
  <step id="1"><agent>  Re&#233;search&#x21;  </agent><arguments><q>x &amp; y&#13;</q></arguments><extra>ignored</extra></step>
</plan>`);
    expect(steps(parsed)).toEqual([
      { id: '2', agent: null, action: undefined, arguments: {}, dependencies: ['1'], description: 'a < b && c' },
      { id: '1', agent: 'Reésearch!', action: undefined, arguments: { q: 'x & y\r' }, dependencies: [], description: '' },
    ]);
    expect(parsed.job).toBeUndefined();
    expect(parsed.title).toBeUndefined();
  });

  it('keeps the last value of a repeated argument, as the seed’s dict does, and argument names JS treats specially', () => {
    const parsed = parse('<plan><step id="1"><arguments><k>1</k><k>2</k><constructor>c</constructor><toString>t</toString></arguments></step></plan>');
    expect(tasksOf(parsed)[0].arguments).toEqual({ k: '2', constructor: 'c', toString: 't' });
  });

  it('matches <plan> to its own closing tag, past an argument named "plan" and comments that mention it', () => {
    const parsed = parse('<!-- not this <plan> -->\n<plan><step id="1"><arguments><plan>p</plan></arguments></step><step id="2"/></plan> and </plan>');
    expect(tasksOf(parsed).map((t) => [t.task_id, t.arguments])).toEqual([
      ['1', { plan: 'p' }],
      ['2', {}],
    ]);
  });

  it('reads an empty plan', () => {
    expect(tasksOf(parse('<plan/>'))).toEqual([]);
    expect(tasksOf(parse('<plan>\n</plan>'))).toEqual([]);
  });
});

describe('cortex-xml: errors name the line', () => {
  it('no <plan> element at all', () => {
    const error = errorOf(() => parse('I could not make a plan, sorry.'));
    expect(error.message).toBe('cortex-xml: no <plan> element found');
  });

  it('a truncated answer: the last line, with the elements left open', () => {
    const error = errorOf(() => parse('Plan:\n<plan>\n  <step id="1">\n    <agent>Writer</agent>\n    <descr'));
    expect(error.location).toBe('line 5');
    expect(error.detail).toMatch(/ends before/);
    const cut = errorOf(() => parse('<plan>\n  <step id="1">\n    <agent>Writer</agent>\n'));
    expect(cut.message).toBe('cortex-xml: line 4: the text ends before <step>, <plan> are closed (truncated?)');
  });

  it('malformed XML: line and column counted in the whole answer, not in the plan', () => {
    const text = 'Here you go:\n\n<plan>\n  <step id="1">\n    <description>R&D budget</description>\n  </step>\n</plan>';
    const error = errorOf(() => parse(text));
    expect(error.location).toBe('line 5, column 19');
    expect(error.detail).toMatch(/^malformed XML: /);
    expect(errorOf(() => parse('x <plan><step id="1"><agent>A</agnt></step></plan>')).location).toMatch(/^line 1, column \d+$/);
  });

  it('CRLF line endings count as one line each', () => {
    const error = errorOf(() => parse('<plan>\r\n<step id="1">\r\n<dependencies>7</dependencies>\r\n</step>\r\n</plan>'));
    expect(error.message).toBe('cortex-xml: line 3: step 1: dependency 7 does not exist');
  });

  it('a dependency on a step that does not exist: the line of <dependencies>', () => {
    const text = ['<plan>', '  <step id="1"/>', '  <step id="3">', '    <agent>A</agent>', '    <dependencies>1,9</dependencies>', '  </step>', '</plan>'].join('\n');
    expect(errorOf(() => parse(text)).message).toBe('cortex-xml: line 5: step 3: dependency 9 does not exist');
  });

  it('a dependency that is not a step id, and a step that depends on itself', () => {
    expect(errorOf(() => parse('<plan>\n<step id="1"><dependencies>step 1</dependencies></step></plan>')).message).toBe(
      'cortex-xml: line 2: step 1: dependency "step 1" is not a step id',
    );
    expect(errorOf(() => parse('<plan>\n<step id="4">\n<dependencies>4</dependencies></step></plan>')).message).toBe(
      'cortex-xml: line 3: step 4: depends on itself',
    );
  });

  it('a step without an id, and a step id that is not a whole number', () => {
    expect(errorOf(() => parse('<plan>\n<step id="1"/>\n<step>\n<agent>A</agent></step></plan>')).message).toBe(
      'cortex-xml: line 3: step #2 (in document order) has no id attribute',
    );
    expect(errorOf(() => parse('<plan>\n\n<step id="one"/></plan>')).message).toBe('cortex-xml: line 3: step id "one" is not a whole number');
  });

  it('a duplicate step id: both lines', () => {
    const error = errorOf(() => parse('<plan>\n<step id="1"/>\n<step id="2"/>\n<step id="01"/>\n</plan>'));
    expect(error.message).toBe('cortex-xml: line 4: step id 1 is used twice (first on line 2)');
  });

  it('a cycle, with its path, at the step that closes it', () => {
    const text = [
      '<plan>',
      '<step id="1"><dependencies>3</dependencies></step>',
      '<step id="2"><dependencies>1</dependencies></step>',
      '<step id="3"><dependencies>2</dependencies></step>',
      '<step id="4"/>',
      '</plan>',
    ].join('\n');
    expect(errorOf(() => parse(text)).message).toBe('cortex-xml: line 2: cycle 1 → 2 → 3 → 1');
    expect(errorOf(() => parse('<plan><step id="1"><dependencies>2</dependencies></step><step id="2"><dependencies>1</dependencies></step></plan>')).detail).toBe(
      'cycle 1 → 2 → 1',
    );
  });

  it('markup inside a leaf, and text where arguments belong', () => {
    expect(errorOf(() => parse('<plan>\n<step id="1">\n<description>use <b>bold</b></description></step></plan>')).message).toBe(
      'cortex-xml: line 3: step 1: <description> contains the element <b>; write a literal "<" as &lt;',
    );
    expect(errorOf(() => parse('<plan>\n<step id="1">\n\n<arguments>topic=AI</arguments></step></plan>')).message).toBe(
      'cortex-xml: line 4: step 1: <arguments> holds text; write each argument as <name>value</name>',
    );
  });

  it('every truncation of every seed plan either reads or fails with a line, never with a raw exception', () => {
    for (const name of ['prompt-sample.xml', 'research-ai-trends.answer.txt', 'market-analysis.xml', 'data-pipeline.xml']) {
      const text = fixture(name);
      for (let end = 0; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        try {
          parse(prefix);
        } catch (error) {
          if (!(error instanceof FormatError)) throw error;
          const { location, detail } = error;
          if (/<plan[\s/>]/.test(prefix)) expect(location).toMatch(/^line \d+/);
          else expect(detail).toBe('no <plan> element found');
        }
      }
    }
  });

  it('what the XML parser itself refuses (nesting past its limit) is reported with the plan line', () => {
    const deep = '<a>'.repeat(150) + '</a>'.repeat(150);
    const error = errorOf(() => parse(`intro\n<plan>\n<step id="1"><arguments>${deep}</arguments></step></plan>`));
    expect(error.message).toBe('cortex-xml: line 2: could not read the XML: Maximum nested tags exceeded');
  });
});

describe('cortex-xml: serialize', () => {
  const doc = (input: PlanDocumentInput) => PlanDocument.parse(input);

  it('escapes XML special characters and keeps CR, so the text reads back identically', () => {
    const description = `a < b && c > "d" 'e' ]]> </plan> \r\n 日本 😀`;
    const out = cortexXmlFormat.serialize(
      doc({ plan: { planned_tasks: [{ task_id: '1', execution_type: 'agent', agent_id: 'A&B', description, arguments: { q: '<x/>' } }] } }),
    );
    expect(XMLValidator.validate(out.text)).toBe(true);
    expect(out.text).toContain('&lt;/plan&gt;');
    expect(out.dropped).toEqual([]);
    const task = tasksOf(parse(out.text))[0];
    expect([task.description, task.agent_id, task.arguments]).toEqual([description, 'A&B', { q: '<x/>' }]);
  });

  it('writes the header from the job first, then from what was imported', () => {
    const out = cortexXmlFormat.serialize(
      doc({
        plan: { original_job_data: { source: 'cortex-xml', objective: 'old', complexity: 'low', estimated_time: 'soon' } },
        job: { job_goal: { objective: 'new' }, job_steerability_data: { estimated_time_minutes: 12.5 } },
      }),
    );
    const again = parse(out.text);
    expect(again.plan.original_job_data).toEqual({ source: 'cortex-xml', objective: 'new', complexity: 'low', estimated_time: '12.5' });
  });

  it('does not write an argument named "plan", which would end the plan early for the seed\'s reader', () => {
    const out = cortexXmlFormat.serialize(doc({ plan: { planned_tasks: [{ task_id: '1', arguments: { plan: 'x', keep: 'y' } }] } }));
    expect(out.dropped).toEqual([`task 1: argument "plan" (the seed's reader would take its end for the end of the plan)`]);
    expect(tasksOf(parse(out.text))[0].arguments).toEqual({ keep: 'y' });
  });

  it('numbers steps whose ids are not whole numbers, keeping the graph, and says so', () => {
    const out = cortexXmlFormat.serialize(
      doc({
        plan: {
          planned_tasks: [
            { task_id: 'fetch', execution_type: 'agent' },
            { task_id: '7', execution_type: 'agent', dependencies: ['fetch'] },
            { task_id: 'report', execution_type: 'agent', dependencies: ['7', 'fetch'] },
          ],
        },
      }),
    );
    expect(out.dropped).toEqual([
      'task fetch: id written as step 8 (Cortex step ids are whole numbers)',
      'task report: id written as step 9 (Cortex step ids are whole numbers)',
    ]);
    expect(tasksOf(parse(out.text)).map((t) => [t.task_id, t.dependencies])).toEqual([
      ['8', []],
      ['7', ['8']],
      ['9', ['7', '8']],
    ]);
  });

  it('finds the next free step number past ids too large for a double', () => {
    const out = cortexXmlFormat.serialize(
      doc({ plan: { planned_tasks: [{ task_id: '99999999999999999999' }, { task_id: 'x', dependencies: ['99999999999999999999'] }] } }),
    );
    expect(tasksOf(parse(out.text)).map((t) => [t.task_id, t.dependencies])).toEqual([
      ['99999999999999999999', []],
      ['100000000000000000000', ['99999999999999999999']],
    ]);
  });

  it('reports whitespace around names, which reads back trimmed', () => {
    const out = cortexXmlFormat.serialize(doc({ plan: { planned_tasks: [{ task_id: '1', agent_id: ' A ', parameters: { action: 'go\n' } }] } }));
    expect(out.dropped).toEqual(['task 1: whitespace around agent_id, whitespace around parameters.action']);
  });

  it('lists every field it cannot carry', () => {
    const out = cortexXmlFormat.serialize(
      doc({
        plan: {
          status: 'done',
          completed_tasks: ['1'],
          task_input_data: { a: 1 },
          planned_tasks: [
            {
              task_id: '1',
              execution_type: 'tool',
              tool_id: 'search',
              function_id: 'run',
              instructions: 'be brief',
              convertor_code: 'x => x',
              estimate_data: { latency_ms: 5 },
              mark_replan: true,
              status: 'completed',
              output: { r: 1 },
              parameters: { action: 'go', sub_type: 'tools', limit: 3 },
              arguments: { 'bad name': 'v', 'ns:tag': 'v', n: 5, flag: true, list: [1], none: null, ctl: 'a\u0000b' },
              dependencies: ['1', 'ghost'],
            },
          ],
        },
        job: { job_objectives: { quality: 'high' }, job_steerability_data: { tone: 'formal' }, task_description: 'ctx' },
      }),
    );
    expect(out.dropped).toEqual([
      'task 1: dependency on itself',
      'task 1: dependency on unknown task ghost',
      'task 1: argument "bad name" (not a usable XML element name)',
      'task 1: argument "ns:tag" (not a usable XML element name)',
      'task 1: argument n: number written as text',
      'task 1: argument flag: boolean written as text',
      'task 1: argument list: array written as text',
      'task 1: argument none: null written as empty text',
      'task 1: argument ctl: 1 character(s) XML cannot carry were removed',
      'task 1: execution_type tool (written as an agent step), tool_id, function_id, parameters.sub_type, parameters.limit, instructions, convertor_code, estimate_data, mark_replan, status "completed", output',
      'plan: task_input_data, completed_tasks, status "done"',
      'job: job_objectives, job_steerability_data.tone, task_description',
    ]);
    expect(tasksOf(parse(out.text))[0].arguments).toEqual({ n: '5', flag: 'true', list: '[1]', none: '', ctl: 'ab' });
  });
});

describe('cortex-xml: detect', () => {
  it('is false for AgentScope lists, JSON quoting a plan, {} and garbage', () => {
    for (const name of ['seeded-tasks.json', 'seeded-tasks-one-sided.json', 'task-update-state-dump.json', 'lifecycle.json']) {
      expect(cortexXmlFormat.detect(agentScopeFixture(name))).toBe(false);
    }
    for (const text of ['{}', '', 'garbage', '<xml/>', '<planning><step/></planning>', '{"answer": "<plan><step id=\\"1\\"/></plan>"}']) {
      expect(cortexXmlFormat.detect(text)).toBe(false);
    }
    expect(agentScopeFormat.detect(fixture('prompt-sample.xml'))).toBe(false);
  });
});

// --- properties ---------------------------------------------------------------------

// XML 1.0 cannot carry these at all; serialize strips and reports them (tested above).
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const awkward = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '>', '&', '"', "'", ']]>', '&amp;', '<!--', '-->', '</plan>', '<step id="9">', '\r', '\r\n', '\n', '\t', ' ', 'é', '😀', '\u200B', '\u0085'),
      fc.string({ unit: 'grapheme', maxLength: 5 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join('').replace(XML_INVALID, ''));
const name = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/),
  fc.constantFrom('constructor', 'prototype', 'toString', 'hasOwnProperty', 'straße', '名前', 'step', 'objective', 'arguments', 'xmlns'),
).filter((n) => n !== 'plan');
const label = awkward.map((s) => s.trim()).filter((s) => s !== '');

const cortexPlan = fc.integer({ min: 0, max: 8 }).chain((n) =>
  fc.record({
    ids: fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { minLength: n, maxLength: n }),
    edges: fc.array(fc.boolean(), { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }),
    tasks: fc.array(
      fc.record({
        agent: fc.option(label, { nil: null }),
        action: fc.option(label, { nil: undefined }),
        description: awkward,
        arguments: fc.dictionary(name, awkward, { maxKeys: 4 }),
      }),
      { minLength: n, maxLength: n },
    ),
    objective: fc.option(label, { nil: undefined }),
    complexity: fc.option(fc.oneof(fc.constantFrom('low', 'medium', 'high'), label), { nil: undefined }),
    minutes: fc.option(fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0.001, max: 1e6, noNaN: true })), { nil: undefined }),
  }),
);

describe('cortex-xml: round trip properties', () => {
  it('serialize → parse keeps steps, dependencies, agents, actions, arguments, descriptions and the header', () => {
    fc.assert(
      fc.property(cortexPlan, (p) => {
        const ids = p.ids.map(String);
        // Edge (i, j), i < j in array order: task j depends on task i; ids are in random
        // numeric order, so forward references in the XML come up too.
        const deps: string[][] = ids.map(() => []);
        let e = 0;
        for (let j = 0; j < ids.length; j++) for (let i = 0; i < j; i++) if (p.edges[e++]) deps[j].push(ids[i]);
        const planned: PlannerTaskInput[] = p.tasks.map((t, k) => ({
          task_id: ids[k],
          execution_type: 'agent',
          agent_id: t.agent,
          description: t.description,
          dependencies: deps[k],
          parameters: t.action === undefined ? {} : { action: t.action },
          arguments: t.arguments,
        }));
        const steer: Record<string, unknown> = {};
        if (p.complexity !== undefined) steer.complexity = p.complexity;
        if (p.minutes !== undefined) steer.estimated_time_minutes = p.minutes;
        const document = PlanDocument.parse({
          plan: { planned_tasks: planned },
          job: { job_goal: p.objective === undefined ? {} : { objective: p.objective }, job_steerability_data: steer },
        });

        const out = cortexXmlFormat.serialize(document);
        expect(out.dropped).toEqual([]);
        expect(cortexXmlFormat.detect(out.text) || planned.length === 0).toBe(true);
        const back = parse(out.text);
        const got = tasksOf(back);
        expect(got.map((t) => t.task_id)).toEqual(ids);
        got.forEach((t, k) => {
          expect(new Set(t.dependencies)).toEqual(new Set(deps[k]));
          expect(t.agent_id).toBe(p.tasks[k].agent);
          expect(t.parameters?.action).toBe(p.tasks[k].action);
          expect(t.description).toBe(p.tasks[k].description);
          expect(t.arguments).toEqual(document.plan.planned_tasks[k].arguments);
          expect(t.execution_type).toBe('agent');
        });
        expect(back.title).toBe(p.objective);
        expect(back.job?.job_steerability_data ?? {}).toEqual(steer);
      }),
      { numRuns: 200 },
    );
  });

  it('any acyclic plan, whatever its ids and fields, serializes to XML that reads back with the same graph', () => {
    const anyPlan = fc.integer({ min: 1, max: 7 }).chain((n) =>
      fc.record({
        ids: fc.uniqueArray(fc.oneof(fc.integer({ min: 0, max: 30 }).map(String), fc.string({ minLength: 1, maxLength: 4 })), {
          minLength: n,
          maxLength: n,
        }),
        edges: fc.array(fc.boolean(), { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }),
        texts: fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { minLength: n, maxLength: n }),
        args: fc.array(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), { minLength: n, maxLength: n }),
        types: fc.array(fc.constantFrom('agent', 'tool', 'llm', 'dsl'), { minLength: n, maxLength: n }),
      }),
    );
    fc.assert(
      fc.property(anyPlan, (p) => {
        const deps: string[][] = p.ids.map(() => []);
        let e = 0;
        for (let j = 0; j < p.ids.length; j++) for (let i = 0; i < j; i++) if (p.edges[e++]) deps[j].push(p.ids[i]);
        const document = PlanDocument.parse({
          plan: {
            planned_tasks: p.ids.map((id, k) => ({
              task_id: id,
              execution_type: p.types[k],
              description: p.texts[k],
              agent_id: p.texts[k],
              dependencies: deps[k],
              arguments: p.args[k],
            })),
          },
        });
        const out = cortexXmlFormat.serialize(document);
        expect(XMLValidator.validate(out.text)).toBe(true);
        const back = tasksOf(parse(out.text));
        expect(back).toHaveLength(p.ids.length);
        // The graph is the same under the id renaming serialize reports.
        const renamed = new Map(p.ids.map((id, k) => [id, back[k].task_id]));
        back.forEach((t, k) => expect(new Set(t.dependencies)).toEqual(new Set(deps[k].map((d) => renamed.get(d)))));
        for (const [id, step] of renamed) {
          if (id !== step) expect(out.dropped).toContain(`task ${id}: id written as step ${step} (Cortex step ids are whole numbers)`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
