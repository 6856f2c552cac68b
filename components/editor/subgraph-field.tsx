'use client';

import { subgraphsHolding } from '@/lib/optimize/subgraph-edits';
import { useEditor, useEditorStore } from './editor-context';

const selectClass =
  'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50';

/** The task's subgraph, and the keyboard way to move it to another (dragging is the other). */
export function SubgraphField({ taskId, disabled }: { taskId: string; disabled: boolean }) {
  const store = useEditorStore();
  const subgraphs = useEditor((s) => s.doc.subgraphs);
  if (subgraphs.length === 0) return null;
  const own = subgraphsHolding(subgraphs, [taskId])[0] ?? '';
  return (
    <label className="block space-y-1">
      <span className="block text-xs font-medium text-slate-600">Subgraph</span>
      <select
        className={selectClass}
        disabled={disabled}
        value={own}
        onChange={(e) => store.getState().moveToSubgraph([taskId], e.target.value)}
      >
        {!own && <option value="">(none)</option>}
        {subgraphs.map((sg) => (
          <option key={sg.subgraph_id} value={sg.subgraph_id}>
            {sg.subgraph_id} ({sg.task_ids.length} task{sg.task_ids.length === 1 ? '' : 's'})
          </option>
        ))}
      </select>
    </label>
  );
}
