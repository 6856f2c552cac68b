/** A labelled control in one of the editor's side panels: the label above it, or beside it when `inline`. */
export function PanelField({ label, inline = false, children }: { label: string; inline?: boolean; children: React.ReactNode }) {
  return (
    <label className={inline ? 'flex items-center gap-2' : 'block space-y-1'}>
      <span className="block text-xs font-medium text-slate-600">{label}</span>
      {children}
    </label>
  );
}
