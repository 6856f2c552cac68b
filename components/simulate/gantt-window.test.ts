import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DRAWN, ROW } from './gantt-geometry';
import { ganttModel, type GanttModel } from './gantt-model';
import { windowBars } from './gantt-window';

// Which bars the timeline draws for a view: what a user scrolling a chart of thousands of tasks sees.

type Status = 'ran' | 'failed' | 'skipped';

/** One worker running `durations` back to back, plus the skipped tasks at their times. */
function chart(durations: number[], skippedAt: number[] = [], status: Status = 'ran'): GanttModel {
  let at = 0;
  const ran = durations.map((ms, i) => {
    const task = { task_id: `t${i}`, start_ms: at, end_ms: at + ms, worker: 0 as number | null, status };
    at += ms;
    return task;
  });
  const skipped = skippedAt.map((ms, i) => ({ task_id: `s${i}`, start_ms: ms, end_ms: ms, worker: null, status: 'skipped' as const }));
  const result = { tasks: [...ran, ...skipped], workers: 1, makespan_ms: at, critical_path: [], findings: [] };
  return ganttModel(result as unknown as Parameters<typeof ganttModel>[0], new Map(), new Map());
}

const wholeView = { left: 0, top: 0, width: 1000, height: 400 };

describe('the bars a timeline draws', () => {
  it('draws every bar wide enough to see when the whole chart is in view', () => {
    const model = chart([100, 200, 300]);
    const { drawn, bands, capped } = windowBars(model, wholeView, 1, new Set());
    expect(drawn.map((t) => t.id)).toEqual(['t0', 't1', 't2']);
    expect(bands).toEqual([]);
    expect(capped).toBe(false);
  });

  it('draws a run of bars too narrow to see as one band that counts them, failed if any failed', () => {
    const model = chart([1, 1, 1, 1, 500], [], 'failed');
    const { drawn, bands } = windowBars(model, wholeView, 1, new Set());
    expect(drawn.map((t) => t.id)).toEqual(['t4']);
    expect(bands).toEqual([{ row: 0, x0: 0, x1: 4, count: 4, failed: true }]);
  });

  it('always draws the bars it must keep (focus, selection), however narrow or far away', () => {
    const model = chart([1, 1, 100_000]);
    const far = { left: 50_000, top: 0, width: 1000, height: 400 };
    const { drawn } = windowBars(model, far, 1, new Set(['t0']));
    expect(drawn.map((t) => t.id)).toContain('t0');
  });

  it('skipped tasks are drawn, in their own row, however short', () => {
    const model = chart([100], [50]);
    const { drawn } = windowBars(model, wholeView, 1, new Set());
    expect(drawn.find((t) => t.id === 's0')?.row).toBe(1);
  });

  it('never draws more than its cap one by one, and says when it capped', () => {
    const model = chart(Array.from({ length: MAX_DRAWN + 5 }, () => 10));
    const { drawn, capped } = windowBars(model, { left: 0, top: 0, width: 100_000, height: 400 }, 1, new Set());
    expect(drawn).toHaveLength(MAX_DRAWN);
    expect(capped).toBe(true);
  });

  it('every bar in view is drawn or in a band, and nothing outside the window is drawn unless kept', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 2000 }), fc.double({ min: 0.05, max: 4, noNaN: true }), (durations, left, pxPerMs) => {
        const model = chart(durations);
        const view = { left, top: 0, width: 300, height: ROW * 2 };
        const { drawn, bands } = windowBars(model, view, pxPerMs, new Set());
        const banded = bands.reduce((n, b) => n + b.count, 0);
        const inView = model.tasks.filter((t) => t.end * pxPerMs >= left && t.start * pxPerMs <= left + view.width);
        for (const task of inView) {
          const covered = drawn.includes(task) || bands.some((b) => b.x0 <= task.start * pxPerMs && task.start * pxPerMs <= b.x1);
          expect(covered).toBe(true);
        }
        for (const task of drawn) expect(task.end * pxPerMs).toBeGreaterThanOrEqual(left - view.width / 2 - 10);
        expect(drawn.length + banded).toBeLessThanOrEqual(model.tasks.length);
      }),
    );
  });
});
