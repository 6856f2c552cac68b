import { MAX_DRAWN, MIN_BAR, ROW, SKIPPED_W, type View } from './gantt-geometry';
import { firstEndingAfter, type GanttModel, type GanttTask } from './gantt-model';

/** A run of bars too narrow to draw one by one. */
export interface Band {
  row: number;
  x0: number;
  x1: number;
  count: number;
  failed: boolean;
}

export interface BarWindow {
  /** The bars to draw one by one. */
  drawn: GanttTask[];
  bands: Band[];
  /** More bars were in view than MAX_DRAWN: the chart asks to zoom in. */
  capped: boolean;
}

/**
 * The bars in and around the view (half a screen either side), at most MAX_DRAWN; runs of bars
 * too narrow to see or click are drawn as one band each. `keep` (the tab stop, the selected,
 * hovered and focused bars) are always drawn, wherever they are, so focus is never lost.
 */
export function windowBars(model: GanttModel, view: View, pxPerMs: number, keep: ReadonlySet<string>): BarWindow {
  const margin = view.width / 2;
  const from = Math.max(0, (view.left - margin) / pxPerMs);
  const to = (view.left + view.width + margin) / pxPerMs;
  const firstRow = Math.max(0, Math.floor((view.top - view.height / 2) / ROW));
  const lastRow = Math.min(model.rows.length - 1, Math.ceil((view.top + view.height * 1.5) / ROW));
  const drawn: GanttTask[] = [];
  const bands: Band[] = [];
  let capped = false;
  for (let r = firstRow; r <= lastRow; r++) {
    const row = model.rows[r];
    let band: Band | null = null;
    for (let i = firstEndingAfter(row, from - SKIPPED_W / pxPerMs); i < row.length && row[i].start <= to; i++) {
      const task = row[i];
      const px = (task.end - task.start) * pxPerMs;
      if (task.status !== 'skipped' && px < MIN_BAR && !keep.has(task.id)) {
        const x0 = task.start * pxPerMs;
        const x1 = Math.max(task.end * pxPerMs, x0 + 1);
        if (band && x0 - band.x1 < 1) {
          band.x1 = Math.max(band.x1, x1);
          band.count += 1;
          band.failed ||= task.status === 'failed';
        } else {
          band = { row: r, x0, x1, count: 1, failed: task.status === 'failed' };
          bands.push(band);
        }
        continue;
      }
      band = null;
      if (drawn.length >= MAX_DRAWN) {
        capped = true;
        continue;
      }
      drawn.push(task);
    }
  }
  for (const id of keep) {
    const task = model.byId.get(id);
    if (task && !drawn.includes(task)) drawn.push(task);
  }
  return { drawn, bands, capped };
}
