/**
 * The editor's panes: the outline on the left, the canvas over the issues in the middle,
 * the inspector on the right. The progressive editor draws the same frame, empty, while a
 * big plan's tasks load, so nothing moves when the editor takes over.
 */
export function EditorFrame({ outline, canvas, issues, inspector }: { outline?: React.ReactNode; canvas: React.ReactNode; issues?: React.ReactNode; inspector?: React.ReactNode }) {
  return (
    <div className="flex min-h-0 flex-1">
      <div className="w-64 shrink-0 border-r border-slate-200 bg-white">{outline}</div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="relative min-h-0 flex-1">{canvas}</div>
        {/* As tall as the issues need, up to their pane's height: one line when there are none. */}
        <div className="shrink-0 border-t border-slate-200 bg-white">{issues}</div>
      </div>
      <div className="w-80 shrink-0 overflow-y-auto border-l border-slate-200 bg-white">{inspector}</div>
    </div>
  );
}
