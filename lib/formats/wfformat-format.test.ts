import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WFCOMMONS_TRACES, wfcommonsDir } from '@/scripts/wfcommons-traces';
import { importPlan } from './import-plan';
import { wfFormat } from './wfformat-format';

const trace = () => readFileSync(path.join(wfcommonsDir(), WFCOMMONS_TRACES.epigenomics), 'utf8');

describe('wfformat: export', () => {
  it('writes a real trace back under its own name, with no invented execution record, and a second round trip writes the same file', () => {
    const first = importPlan(trace(), 'wfformat').document;
    const name = (JSON.parse(trace()) as { name: string }).name;
    expect(first.plan.task_id).toBe(name);

    const out = wfFormat.serialize(first);
    const written = JSON.parse(out.text) as { name: string; workflow: Record<string, unknown> };
    expect(written.name).toBe(name);
    expect(written.workflow).not.toHaveProperty('execution');
    expect(out.text).not.toMatch(/makespanInSeconds|executedAt|wfcommons-/);
    expect(out.dropped).toEqual([]);

    const second = importPlan(out.text, 'wfformat').document;
    expect(second.plan.task_id).toBe(name);
    expect(second.plan.planned_tasks.map((t) => [t.task_id, t.tool_id, t.dependencies, t.estimate_data])).toEqual(
      first.plan.planned_tasks.map((t) => [t.task_id, t.tool_id, t.dependencies, t.estimate_data]),
    );
    expect(wfFormat.serialize(second).text).toBe(out.text);
  });
});
