import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Job, PlanDocument, TaskData } from '@/lib/plan';
import { FormatError } from './format';
import { taskDataFormat } from './taskdata';
import { errorThrownBy } from './test-support';

const plan = TaskData.parse({
  task_id: 'job-1',
  planned_tasks: [
    { task_id: 'fetch', execution_type: 'tool', tool_id: 'http_get' },
    { task_id: 'sum', execution_type: 'l2_task', parameters: { sub_type: 'llm' }, dependencies: ['fetch'] },
  ],
});
const job = Job.parse({ job_goal: { objective: 'Summarize research papers' } });

const errorOf = (text: string) => errorThrownBy(FormatError, () => taskDataFormat.parse(text));

describe('TaskData format', () => {
  it('reads TaskData, a Behavior Controller reply and a Stage 1 answer alike', () => {
    const tasks = [{ task_id: 'a', execution_type: 'agent' }, { task_id: 'b', execution_type: 'tool', dependencies: ['a'] }];
    for (const text of [JSON.stringify({ planned_tasks: tasks }), JSON.stringify({ success: true, data: tasks }), JSON.stringify({ tasks })]) {
      const parsed = TaskData.parse(taskDataFormat.parse(text).plan);
      expect(parsed.planned_tasks.map((t) => [t.task_id, t.dependencies])).toEqual([
        ['a', []],
        ['b', ['a']],
      ]);
    }
  });

  it('round-trips the plan and carries the job in original_job_data', () => {
    const { text, dropped } = taskDataFormat.serialize({ plan, job });
    expect(dropped).toEqual([]);
    const back = taskDataFormat.parse(text);
    expect(TaskData.parse(back.plan).planned_tasks).toEqual(plan.planned_tasks);
    expect(back.job).toEqual(job);
  });

  it('round-trips random plans field for field', () => {
    const arbitraryPlan = fc
      .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 12 })
      .chain((ids) =>
        fc.tuple(
          ...ids.map((id, i) =>
            fc.record({
              task_id: fc.constant(id),
              description: fc.string(),
              execution_type: fc.constantFrom('agent', 'tool', 'llm', 'dsl'),
              dependencies: fc.subarray(ids.slice(0, i)),
              arguments: fc.dictionary(fc.string(), fc.jsonValue()),
              mark_replan: fc.boolean(),
            }),
          ),
        ),
      );
    fc.assert(
      fc.property(arbitraryPlan, (tasks) => {
        const original = TaskData.parse({ planned_tasks: tasks });
        const back = TaskData.parse(taskDataFormat.parse(taskDataFormat.serialize({ plan: original, job: Job.parse({}) }).text).plan);
        expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(original)));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses broken input with the line or path of the problem', () => {
    expect(errorOf('{\n  "planned_tasks": [\n    { "task_id": "a", }\n  ]\n}').message).toMatch(/^taskdata: line 3, column \d+: not valid JSON/);
    expect(errorOf('{"planned_tasks": [{"task_id": "a", "dependencies": "b"}]}').message).toBe(
      'taskdata: planned_tasks[0].dependencies: Invalid input: expected array, received string',
    );
    expect(errorOf('{"success": true, "data": [{"task_id": 5}]}').location).toBe('data[0].task_id');
  });

  it('detects its own shapes and not the other formats', () => {
    expect(taskDataFormat.detect(JSON.stringify({ planned_tasks: [] }))).toBe(true);
    expect(taskDataFormat.detect(JSON.stringify({ steps: [], metadata: {} }))).toBe(false);
    expect(taskDataFormat.detect('<plan></plan>')).toBe(false);
  });
});

describe('TaskData export and import', () => {
  const jobs = fc.oneof(
    fc.constant(Job.parse({})),
    fc.record({ job_goal: fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }), task_description: fc.string({ maxLength: 10 }) }).map((j) => Job.parse(j)),
  );
  const originals = fc.oneof(
    fc.constant(null),
    fc.dictionary(fc.constantFrom('query', 'timestamp', 'source', 'job_goal'), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
    // Shaped like a job without being the plan's job.
    fc.record({ job_goal: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }) }, { requiredKeys: [] }),
  );

  it('gives back the same plan and job, whatever original_job_data and the job hold, so the content hash is kept', () => {
    fc.assert(
      fc.property(jobs, originals, (job, original) => {
        const plan = TaskData.parse({ task_id: 'p', original_job_data: original, planned_tasks: [{ task_id: 'a', execution_type: 'tool', tool_id: 'x' }] });
        const doc = PlanDocument.parse({ plan, job });
        const written = taskDataFormat.serialize(doc);
        expect(written.dropped).toEqual([]);
        const back = PlanDocument.parse(taskDataFormat.parse(written.text));
        expect(back.plan).toEqual(doc.plan);
        expect(back.job).toEqual(doc.job);
      }),
      { numRuns: 300 },
    );
  });
});
