import type { ReactNode } from 'react';
import { findStepTemplates, findVariableReferences } from '@/lib/plan';

// A task's input as the dry run resolved it, laid out like JSON, read beside the arguments
// it came from: a string that held references (${step[i]…}, †state) shows what it became,
// and a reference that did not resolve (null, or named by a finding) is marked.

/** Nodes drawn before the rest is summarised: a 64 kB value could be thousands. */
const MAX_NODES = 1500;

export function referencesIn(text: string): string[] {
  return [...findStepTemplates(text), ...findVariableReferences(text).filter((r) => r.root === 'state')].map((r) => r.text);
}

interface Walk {
  nodes: number;
  unresolvedCount: number;
  problems: readonly string[];
}

function scalar(value: unknown): ReactNode {
  if (typeof value === 'string') return <span className="text-emerald-800">{JSON.stringify(value)}</span>;
  if (value === null) return <span className="text-slate-500">null</span>;
  return <span className="text-indigo-800">{JSON.stringify(value) ?? String(value)}</span>;
}

function render(value: unknown, raw: unknown, walk: Walk, indent: number): ReactNode {
  if (++walk.nodes > MAX_NODES) return <span className="text-slate-500">…</span>;
  const pad = '  '.repeat(indent + 1);
  const end = '  '.repeat(indent);
  if (typeof raw === 'string') {
    const refs = referencesIn(raw);
    if (refs.length) {
      const failed = value === null || refs.some((ref) => walk.problems.some((message) => message.includes(ref)));
      if (failed) walk.unresolvedCount += 1;
      return (
        <span
          data-unresolved={failed || undefined}
          className={failed ? 'rounded bg-rose-100 px-0.5 text-rose-900 ring-1 ring-rose-400' : 'rounded bg-emerald-50 px-0.5'}
          title={failed ? `Did not resolve: ${refs.join(', ')}` : `From ${refs.join(', ')}`}
        >
          {scalar(value)}
          <span className={`ml-1 text-[10px] ${failed ? 'font-semibold text-rose-800' : 'text-slate-500'}`}>
            {failed ? `← unresolved ${refs.join(', ')}` : `← ${refs.join(', ')}`}
          </span>
        </span>
      );
    }
  }
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const rawItems = Array.isArray(raw) ? raw : [];
    return (
      <>
        {'[\n'}
        {value.map((item, i) => (
          <span key={i}>
            {pad}
            {render(item, rawItems[i], walk, indent + 1)}
            {i < value.length - 1 ? ',\n' : '\n'}
          </span>
        ))}
        {end}]
      </>
    );
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return '{}';
    const rawObject = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    return (
      <>
        {'{\n'}
        {entries.map(([key, item], i) => (
          <span key={key}>
            {pad}
            <span className="text-slate-700">{JSON.stringify(key)}</span>: {render(item, rawObject[key], walk, indent + 1)}
            {i < entries.length - 1 ? ',\n' : '\n'}
          </span>
        ))}
        {end}
        {'}'}
      </>
    );
  }
  return scalar(value);
}

/**
 * `value` laid out as JSON; where `raw` (the same shape, before resolution) held references,
 * what they became, marked when unresolved. `problems`: the task's finding messages.
 */
export function ResolvedJson({ value, raw, problems, label }: { value: unknown; raw?: unknown; problems?: readonly string[]; label: string }) {
  const walk: Walk = { nodes: 0, unresolvedCount: 0, problems: problems ?? [] };
  const body = render(value, raw, walk, 0);
  return (
    <>
      {walk.unresolvedCount > 0 && (
        <p className="mb-1 text-xs font-medium text-rose-800">
          {walk.unresolvedCount === 1 ? '1 reference did not resolve' : `${walk.unresolvedCount} references did not resolve`} (marked in red).
        </p>
      )}
      <pre role="region" aria-label={label} tabIndex={0} className="max-h-72 overflow-auto whitespace-pre rounded border border-slate-200 bg-slate-50 p-2 font-mono text-[11px] leading-snug">
        {body}
      </pre>
    </>
  );
}
