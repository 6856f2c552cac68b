import { describe, expect, it } from 'vitest';
import { PlanDocument, type PlannerTaskInput } from '@/lib/plan';
import { DEMO_REGISTRY, Registry } from '@/lib/registry';
import { validatePlan } from '@/lib/validate';
import { applyReplacements } from './apply-replacements';
import type { ReplanInput } from './replan-types';
import { ruleBasedReplanner } from './rule-based-replanner';

const registry = Registry.parse(DEMO_REGISTRY);
const today = '2025-10-12';

// Seed 001's "contaminated shipments and their contaminant details", as the rule-based planner writes it.
const seedPlan: PlannerTaskInput[] = [
  { task_id: 'step-0', description: 'Get contaminated shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { has_contaminants: true, limit: 100 } },
  {
    task_id: 'step-1',
    description: 'Get their contaminant details',
    execution_type: 'tool',
    tool_id: 'contaminants_list',
    dependencies: ['step-0'],
    arguments: { shipment_ids: '${step[0].data.*.id}' },
  },
];

function input(planned: PlannerTaskInput[], taskIds: string[], instructions: string): ReplanInput {
  const doc = PlanDocument.parse({ plan: { planned_tasks: planned.map((t) => ({ ...t, mark_replan: taskIds.includes(t.task_id!) })) } });
  return { doc, taskIds, instructions, registry, today };
}

const errors = (doc: PlanDocument) => validatePlan(doc.plan, registry).issues.filter((i) => i.severity === 'error');

describe('rule-based replanner', () => {
  it('plans a shipment task again from its description and the instruction, numbering on from the plan', async () => {
    const request = input(seedPlan, ['step-0'], 'from last week');
    const { replacements, notes } = await ruleBasedReplanner.replan(request);
    expect(replacements).toHaveLength(1);
    expect(replacements[0].replaces).toBe('step-0');
    expect(replacements[0].tasks.map((t) => ({ id: t.task_id, tool: t.tool_id, args: t.arguments, description: t.description, instructions: t.instructions }))).toEqual([
      {
        id: 'step-2',
        tool: 'shipments_list',
        args: { has_contaminants: true, date_from: '2025-10-05', date_to: '2025-10-12', limit: 100 },
        description: 'Get contaminated shipments. From last week.',
        instructions: 'from last week',
      },
    ]);
    expect(notes[0]).toBe('Replanned by fixed rules, not a language model.');
    expect(notes[1]).toMatch(/^"step-0": planned again by the rules as 1 step\. .*"last week" → date_from 2025-10-05/);

    const applied = applyReplacements(request.doc, replacements, ['step-0']);
    expect(applied.plan.planned_tasks[1]).toMatchObject({ task_id: 'step-1', dependencies: ['step-2'], arguments: { shipment_ids: '${step[2].data.*.id}' } });
    expect(errors(applied)).toEqual([]);
  });

  it('writes the instruction into a task the rules do not plan, keeping its target and arguments', async () => {
    const planned: PlannerTaskInput[] = [
      ...seedPlan,
      {
        task_id: 'summary',
        description: 'Summarise the contaminants',
        execution_type: 'llm',
        function_id: 'gpt-4',
        dependencies: ['step-1'],
        parameters: { temperature: 0, stage2: { uid: 'gpt-4', input_data: { prompt: 'old' } } },
        arguments: { style: 'brief' },
      },
    ];
    const { replacements, notes } = await ruleBasedReplanner.replan(input(planned, ['summary', 'step-1'], 'write it in German'));
    const [summary, details] = replacements;
    expect(summary.tasks).toHaveLength(1);
    expect(summary.tasks[0]).toMatchObject({
      task_id: 'step-2',
      description: 'Summarise the contaminants. Write it in German.',
      execution_type: 'llm',
      function_id: 'gpt-4',
      parameters: { temperature: 0 },
      arguments: { style: 'brief' },
      instructions: 'write it in German',
    });
    // A task that reads another task's rows is not re-planned from scratch: it would lose them.
    expect(details.tasks[0]).toMatchObject({ task_id: 'step-3', tool_id: 'contaminants_list', arguments: { shipment_ids: '${step[0].data.*.id}' } });
    expect(notes.slice(1)).toEqual([
      '"summary": not re-planned (the planning rules only know shipments_list, facilities_list, contaminants_list, inspections_list); the instruction was added to the task.',
      '"step-1": not re-planned (it reads the output of other tasks, which the rules would plan afresh); the instruction was added to the task.',
    ]);
  });

  it('names a copy <id>-r1 in a plan that does not name its steps, bumping past ids in use', async () => {
    const planned: PlannerTaskInput[] = [
      { task_id: 'draft', description: 'Draft the report', execution_type: 'agent', agent_id: 'summariser' },
      { task_id: 'draft-r1', description: 'An earlier replacement', execution_type: 'agent', agent_id: 'summariser' },
    ];
    const { replacements, notes } = await ruleBasedReplanner.replan(input(planned, ['draft'], ''));
    expect(replacements[0].tasks[0]).toMatchObject({ task_id: 'draft-r2', description: 'Draft the report.', agent_id: 'summariser', instructions: null });
    expect(notes[1]).toContain('no instruction was given, so only its id changed');
  });

  it('turns an instruction that adds a step into a chain whose templates read the new steps', async () => {
    const planned: PlannerTaskInput[] = [
      { task_id: 'ship', description: 'Get rejected shipments', execution_type: 'tool', tool_id: 'shipments_list', arguments: { status: 'rejected', limit: 100 } },
      { task_id: 'report', description: 'Report', execution_type: 'agent', agent_id: 'summariser', dependencies: ['ship'] },
    ];
    const request = input(planned, ['ship'], 'then check their contaminants');
    const { replacements } = await ruleBasedReplanner.replan(request);
    expect(replacements[0].tasks.map((t) => [t.task_id, t.tool_id, t.dependencies, t.arguments])).toEqual([
      ['step-0', 'shipments_list', [], { status: 'rejected', limit: 100 }],
      ['step-1', 'contaminants_list', ['step-0'], { shipment_ids: '${step[0].data.*.id}' }],
    ]);
    const applied = applyReplacements(request.doc, replacements, ['ship']);
    expect(applied.plan.planned_tasks.find((t) => t.task_id === 'report')!.dependencies).toEqual(['step-1']);
    expect(errors(applied)).toEqual([]);
  });

  it('gives the same replacements for the same plan and instruction', async () => {
    const strip = (r: Awaited<ReturnType<typeof ruleBasedReplanner.replan>>) =>
      r.replacements.map((x) => x.tasks.map(({ creation_time: _c, last_update_time: _u, ...rest }) => rest));
    const request = input(seedPlan, ['step-0', 'step-1'], 'only high-risk');
    const first = await ruleBasedReplanner.replan(request);
    expect(strip(first)).toEqual(strip(await ruleBasedReplanner.replan(request)));
    // Both replaced: the copy of step-1 reads step-0's replacement.
    expect(errors(applyReplacements(request.doc, first.replacements, ['step-0', 'step-1']))).toEqual([]);
  });
});
