'use client';

import { useState } from 'react';
import { JsonView, collapseAllNested, defaultStyles } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';
import { SMALL_BUTTON } from '@/components/form/styles';

// react-json-view-lite draws the tree (keyboard-operable expand and collapse); the colours
// are Plangate's, dark enough on white for WCAG AA.
const STYLE = {
  ...defaultStyles,
  container: 'font-mono text-[11px] leading-relaxed text-slate-900',
  label: 'mr-1 font-semibold text-slate-900',
  stringValue: 'text-emerald-800',
  numberValue: 'text-sky-800',
  booleanValue: 'text-violet-800',
  nullValue: 'text-slate-600',
  undefinedValue: 'text-slate-600',
  otherValue: 'text-slate-800',
  punctuation: 'text-slate-600',
  ariaLables: { collapseJson: 'Collapse', expandJson: 'Expand' },
};

/** A JSON value to read: a collapsible tree (top level open), and a button that copies it as text. */
export function JsonViewer({ label, value, empty = 'None yet.' }: { label: string; value: unknown; empty?: string }) {
  const [copied, setCopied] = useState(false);
  const missing = value === null || value === undefined;
  const text = missing ? '' : JSON.stringify(value, null, 2);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <section aria-label={label} className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <h4 className="text-xs font-medium text-slate-700">{label}</h4>
        {!missing && (
          <button type="button" className={SMALL_BUTTON} onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
            <span className="sr-only"> {label}</span>
          </button>
        )}
      </div>
      {missing ? (
        <p className="text-xs text-slate-600">{empty}</p>
      ) : typeof value === 'object' ? (
        <div className="max-h-64 overflow-auto rounded bg-slate-50 p-2">
          <JsonView data={value} shouldExpandNode={collapseAllNested} style={STYLE} />
        </div>
      ) : (
        <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[11px]">{text}</pre>
      )}
    </section>
  );
}
