'use client';

import { useState } from 'react';
import { SMALL_BUTTON } from '@/components/form/styles';
import { GanttChart } from './gantt-chart';
import type { GanttModel } from './gantt-model';
import { GanttTable } from './gantt-table';

/** The timeline as a chart or as a sortable table; both select the same task. */
export function DryRunTimeline({ model, selectedId, onSelect }: { model: GanttModel; selectedId: string | null; onSelect: (taskId: string) => void }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <section aria-labelledby="timeline-heading" className="space-y-2">
      <div className="flex items-center gap-3">
        <h3 id="timeline-heading" className="text-sm font-semibold">
          Timeline
        </h3>
        <div role="group" aria-label="Timeline view" className="flex">
          <button type="button" className={`${SMALL_BUTTON} rounded-r-none`} aria-pressed={view === 'chart'} onClick={() => setView('chart')}>
            Chart
          </button>
          <button type="button" className={`${SMALL_BUTTON} -ml-px rounded-l-none`} aria-pressed={view === 'table'} onClick={() => setView('table')}>
            Table
          </button>
        </div>
      </div>
      {view === 'chart' ? <GanttChart model={model} selectedId={selectedId} onSelect={onSelect} /> : <GanttTable model={model} selectedId={selectedId} onSelect={onSelect} />}
    </section>
  );
}
