'use client';

import { memo } from 'react';
import { useValidation } from './use-validation';

export const IssuesPanel = memo(function IssuesPanel({ onReveal }: { onReveal: (taskIds: string[]) => void }) {
  const { result } = useValidation();
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  const warnings = result.issues.length - errors;
  return (
    <section aria-labelledby="issues-heading" className="flex h-full flex-col">
      <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 id="issues-heading" className="text-sm font-semibold">
          Issues
        </h2>
        <span className={`text-xs font-medium ${errors ? 'text-rose-700' : 'text-emerald-700'}`} aria-live="polite">
          {errors ? `${errors} error${errors === 1 ? '' : 's'}` : 'No errors'}
          {warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}
        </span>
      </header>
      <ul className="flex-1 overflow-y-auto" aria-label="Validation issues">
        {result.issues.slice(0, 200).map((issue, i) => (
          <li key={i}>
            <button
              type="button"
              disabled={issue.task_ids.length === 0}
              onClick={() => onReveal([...new Set(issue.task_ids)])}
              className="flex w-full gap-2 px-3 py-1.5 text-left text-xs hover:bg-slate-50 disabled:cursor-default"
            >
              <span
                className={`mt-px shrink-0 rounded px-1 font-semibold uppercase ${issue.severity === 'error' ? 'bg-rose-100 text-rose-800' : 'bg-amber-100 text-amber-800'}`}
              >
                {issue.severity}
              </span>
              <span className="text-slate-700">{issue.message}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
});
