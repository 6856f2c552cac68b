import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TaskData, readEstimate } from '@/lib/plan';
import { validatePlan } from '@/lib/validate';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { parseWfFormat } from './wfformat';
import { taskDataFromWorkflow } from './wfformat-plan';

describe('taskDataFromWorkflow', () => {
  it('turns the montage trace into a valid 2,122-task plan with runtimes as estimates', () => {
    const workflow = parseWfFormat(readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.montage), 'utf8'));
    const plan = TaskData.parse(taskDataFromWorkflow(workflow));
    expect(plan.planned_tasks).toHaveLength(2122);
    expect(plan.planned_tasks.every((t) => t.execution_type === 'tool' && t.tool_id && !/_ID\d+$/.test(t.tool_id))).toBe(true);
    expect(plan.planned_tasks.filter((t) => readEstimate(t.estimate_data).latency_ms !== undefined).length).toBeGreaterThan(2000);
    expect(validatePlan(plan).valid).toBe(true);
  });
});
