'use client';

import { memo, useDeferredValue, useMemo, useState } from 'react';
import { groupIssues, issueGroupTitle, matchesIssueFilter, type IssueFilter, type IssueGroup, type Severity } from '@/lib/validate';
import { AddMissingResourcesButton } from './add-missing-resources-button';
import { useEditor } from './editor-context';
import { useValidation } from './use-validation';

// Issues come in groups (severity and code), collapsed, with how many each resource they
// name accounts for: a 2,122-task import is a few lines to read, not 2,122.

/** Per group, issues listed once it is opened; the rest are reached by filtering. */
const LISTED_PER_GROUP = 200;
/** Resources named in a group's summary line; the rest are left as "…". */
const NAMED_TARGETS = 5;

const count = (n: number) => n.toLocaleString('en');

const SEVERITY_BADGE: Record<Severity, string> = {
  error: 'bg-rose-100 text-rose-800',
  warning: 'bg-amber-100 text-amber-800',
};

export const IssuesPanel = memo(function IssuesPanel({ onReveal }: { onReveal: (taskIds: string[]) => void }) {
  const { result, pending } = useValidation();
  const [text, setText] = useState('');
  const [severity, setSeverity] = useState<IssueFilter['severity']>('all');
  const filter = useDeferredValue<IssueFilter>(useMemo(() => ({ text, severity }), [text, severity]));
  const groups = useMemo(() => groupIssues(result.issues.filter((issue) => matchesIssueFilter(issue, filter))), [result, filter]);
  const errors = result.issues.filter((i) => i.severity === 'error').length;
  const warnings = result.issues.length - errors;
  // A clean plan's pane is one line (while it is checked too), and the canvas gets the rest.
  const empty = result.issues.length === 0;
  return (
    <section aria-labelledby="issues-heading" className={`flex flex-col ${empty ? '' : 'h-40'}`}>
      <header className={`flex items-center justify-between px-3 ${empty ? 'py-1' : 'border-b border-slate-200 py-2'}`}>
        <h2 id="issues-heading" className="text-sm font-semibold">
          Issues
        </h2>
        <span className={`text-xs font-medium ${pending ? 'text-slate-600' : errors ? 'text-rose-700' : 'text-emerald-700'}`} aria-live="polite">
          {pending ? 'Checking the plan…' : empty ? 'No issues' : errors ? `${count(errors)} error${errors === 1 ? '' : 's'}` : 'No errors'}
          {!pending && warnings ? `, ${count(warnings)} warning${warnings === 1 ? '' : 's'}` : ''}
        </span>
      </header>
      {result.issues.length > 0 && (
        <div className="flex gap-2 border-b border-slate-100 px-3 py-1.5">
          <input
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-label="Filter issues"
            placeholder="Filter by text, tool or task"
            className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-0.5 text-xs"
          />
          <select
            value={severity}
            onChange={(event) => setSeverity(event.target.value as IssueFilter['severity'])}
            aria-label="Severity"
            className="rounded border border-slate-300 px-1 py-0.5 text-xs"
          >
            <option value="all">All</option>
            <option value="error">Errors</option>
            <option value="warning">Warnings</option>
          </select>
        </div>
      )}
      {!empty && (
        <ul className="flex-1 overflow-y-auto" aria-label="Validation issues">
          {groups.map((group) => (
            <IssueGroupItem key={group.key} group={group} onReveal={onReveal} />
          ))}
          {groups.length === 0 && result.issues.length > 0 && <li className="px-3 py-2 text-xs text-slate-500">No issues match the filter</li>}
        </ul>
      )}
    </section>
  );
});

function IssueGroupItem({ group, onReveal }: { group: IssueGroup; onReveal: (taskIds: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const editable = useEditor((s) => !s.readOnly);
  const title = issueGroupTitle(group);
  const only = group.issues.length === 1 ? group.issues[0] : null;
  const breakdown = group.targets.slice(0, NAMED_TARGETS).map((t) => `${t.id} ${count(t.count)}`);
  if (group.targets.length > NAMED_TARGETS) breakdown.push('…');
  const listed = group.issues.slice(0, LISTED_PER_GROUP);
  return (
    <li className="border-b border-slate-100">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full gap-2 px-3 py-1.5 text-left text-xs hover:bg-slate-50"
      >
        <span className={`mt-px shrink-0 rounded px-1 font-semibold uppercase ${SEVERITY_BADGE[group.severity]}`}>{group.severity}</span>
        <span className="min-w-0 text-slate-700">
          <span className="font-medium">
            {count(group.issues.length)} × {title}
          </span>
          {breakdown.length > 0 && `: ${breakdown.join(', ')}`}
          {only && !breakdown.length && <span className="block text-slate-500">{only.message}</span>}
        </span>
      </button>
      {open && (
        <>
          {editable && group.code === 'unknown_target' && group.targets.length > 0 && (
            <AddMissingResourcesButton targets={group.targets} noun={title.replace(/^unknown /, '').replace('target', 'resource')} />
          )}
          <ul aria-label={`${title} issues`} className="pb-1">
            {listed.map((issue, i) => (
              <li key={i}>
                <button
                  type="button"
                  disabled={issue.task_ids.length === 0}
                  onClick={() => onReveal([...new Set(issue.task_ids)])}
                  className="w-full py-1 pr-3 pl-8 text-left text-xs text-slate-700 hover:bg-slate-50 disabled:cursor-default"
                >
                  {issue.message}
                </button>
              </li>
            ))}
            {group.issues.length > listed.length && (
              <li className="py-1 pl-8 text-xs text-slate-500">{count(group.issues.length - listed.length)} more; filter to find one</li>
            )}
          </ul>
        </>
      )}
    </li>
  );
}
