const STYLES: Record<string, string> = {
  draft: 'bg-slate-100 text-slate-700 ring-slate-300',
  in_review: 'bg-amber-50 text-amber-800 ring-amber-300',
  approved: 'bg-emerald-50 text-emerald-800 ring-emerald-300',
  changes_requested: 'bg-orange-50 text-orange-800 ring-orange-300',
  rejected: 'bg-rose-50 text-rose-800 ring-rose-300',
};

export function StatusChip({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[status] ?? STYLES.draft}`}
    >
      {status.replace('_', ' ')}
    </span>
  );
}
