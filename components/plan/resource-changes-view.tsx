import type { ResourceChange } from '@/lib/approval/approved-resources';

const LABEL: Record<ResourceChange['change'], string> = { added: 'Added', changed: 'Changed', removed: 'Removed' };

function Definition({ title, value }: { title: string; value: unknown }) {
  return (
    <div className="min-w-0 flex-1">
      <p className="text-xs font-medium text-slate-500">{title}</p>
      <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800">
        {value === null ? '(none)' : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

/** Registry resources that differ from what an approval covered, each with before and after. */
export function ResourceChangesView({ changes }: { changes: ResourceChange[] }) {
  if (!changes.length) return <p className="text-sm text-slate-600">None of the resources this plan routes to changed.</p>;
  return (
    <ul className="space-y-2 text-sm" aria-label="Changed resources">
      {changes.map((change) => (
        <li key={`${change.kind}/${change.key}`} className="rounded border border-slate-200 p-2">
          <details>
            <summary className="cursor-pointer">
              <span className="font-medium">{LABEL[change.change]}</span> {change.kind}/<span className="font-mono">{change.key}</span>
            </summary>
            <div className="mt-2 flex flex-wrap gap-2">
              <Definition title="When approved" value={change.before} />
              <Definition title="Now" value={change.after} />
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
