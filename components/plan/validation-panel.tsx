import type { ValidationResult } from '@/lib/validate';

export function ValidationPanel({ result }: { result: ValidationResult }) {
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  const warnings = result.issues.length - errors;
  return (
    <section aria-labelledby="validation-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
        <h2 id="validation-heading" className="text-sm font-semibold">
          Validation
        </h2>
        <span className={`text-xs font-medium ${errors ? 'text-rose-700' : 'text-emerald-700'}`}>
          {errors ? `${errors} error${errors === 1 ? '' : 's'}` : 'No errors'}
          {warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}
        </span>
      </header>
      {result.issues.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-600">The plan is a valid DAG and every task has an execution type.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Validation issues">
          {result.issues.map((issue, i) => (
            <li key={i} className="flex gap-3 px-4 py-2.5 text-sm">
              <span
                className={`mt-0.5 shrink-0 rounded px-1.5 text-xs font-semibold uppercase ${
                  issue.severity === 'error' ? 'bg-rose-100 text-rose-800' : 'bg-amber-100 text-amber-800'
                }`}
              >
                {issue.severity}
              </span>
              <span className="text-slate-700">{issue.message}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
