'use client';

import { useState } from 'react';
import { ToggleGroup } from '@/components/form/toggle-group';
import { GanttChart } from './gantt-chart';
import type { GanttModel } from './gantt-model';
import { GanttTable } from './gantt-table';

const TIMELINE_VIEWS = [
  { value: 'chart', label: 'Chart' },
  { value: 'table', label: 'Table' },
] as const;

/** The timeline as a chart or as a sortable table; both select the same task. */
export function DryRunTimeline({ model, selectedId, onSelect }: { model: GanttModel; selectedId: string | null; onSelect: (taskId: string) => void }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <section aria-labelledby="timeline-heading" className="space-y-2">
      <div className="flex items-center gap-3">
        <h3 id="timeline-heading" className="text-sm font-semibold">
          Timeline
        </h3>
        <ToggleGroup label="Timeline view" options={TIMELINE_VIEWS} value={view} onChange={setView} />
      </div>
      {view === 'chart' ? <GanttChart model={model} selectedId={selectedId} onSelect={onSelect} /> : <GanttTable model={model} selectedId={selectedId} onSelect={onSelect} />}
    </section>
  );
}
