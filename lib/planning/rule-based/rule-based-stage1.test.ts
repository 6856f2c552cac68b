// The rule-based Stage 1 gives the tasks that importing the seed's own plan gives.

import { describe, expect, it } from 'vitest';
import { plannerAgentFormat } from '@/lib/formats/planner-agent';
import type { PlannerTaskInput } from '@/lib/plan';
import { QueryPlanError } from './query-planner';
import { ruleBasedStage1 } from './rule-based-stage1';
import { fixtureText, SEED_EXAMPLES, SEED_TODAY } from './test-support';

const core = (tasks: PlannerTaskInput[]) =>
  tasks.map(({ task_id, tool_id, arguments: args, dependencies }) => ({ task_id, tool_id, arguments: args, dependencies }));

describe('ruleBasedStage1: seed 001 examples, compared with importing the seed\'s plan', () => {
  for (const example of SEED_EXAMPLES) {
    it(`${example.name}: "${example.query}"`, () => {
      const { tasks, notes } = ruleBasedStage1({ query: example.query, today: SEED_TODAY });
      const imported = plannerAgentFormat.parse(fixtureText(example.file)).plan.planned_tasks ?? [];
      expect(core(tasks)).toEqual(core(imported));
      for (const task of tasks) {
        expect(task.execution_type).toBe('tool');
        expect(task.description).toBe(`Call ${task.tool_id}`);
        expect(typeof task.parameters.parallel).toBe('boolean');
      }
      expect(notes[0]).toMatch(/not a language model/);
    });
  }

  it('example 7: the chain becomes step-0 → step-1 → step-2', () => {
    const { tasks } = ruleBasedStage1({ query: SEED_EXAMPLES[6].query, today: SEED_TODAY });
    expect(tasks.map((t) => [t.task_id, t.dependencies])).toEqual([
      ['step-0', []],
      ['step-1', ['step-0']],
      ['step-2', ['step-1']],
    ]);
  });

  it('refuses what it cannot read', () => {
    expect(() => ruleBasedStage1({ query: 'Run analysis on everything', today: SEED_TODAY })).toThrow(QueryPlanError);
  });
});
