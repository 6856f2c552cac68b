'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { importPlanAction } from '@/app/import/actions';
import { FORMAT_IDS, FORMAT_LABELS, type FormatId } from '@/lib/formats/format';
import { ActionError } from '@/components/form/action-error';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

const FORM_ERROR = 'block rounded border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900';
const SUBMIT = 'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50';

/** A plan pasted or read from a file, in any format Plangate reads; it opens in the editor once stored. */
export function ImportForm() {
  const router = useRouter();
  const [content, setContent] = useState('');
  const [format, setFormat] = useState<FormatId | ''>('');
  const [title, setTitle] = useState('');
  // The new plan's page is the next thing to show, not this one again.
  const importer = useServerAction(importPlanAction, { refresh: 'never', onSuccess: (plan) => router.push(`/plans/${plan.id}`) });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void importer.run({ content, format: format || undefined, title: title.trim() || undefined });
      }}
      className="space-y-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Format</span>
          <select className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5" value={format} onChange={(e) => setFormat(e.target.value as FormatId | '')}>
            <option value="">Detect automatically</option>
            {FORMAT_IDS.map((id) => (
              <option key={id} value={id}>
                {FORMAT_LABELS[id]}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="font-medium text-slate-700">Title (optional)</span>
          <input className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5" value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
      </div>
      <label className="block text-sm">
        <span className="font-medium text-slate-700">File</span>
        <input
          type="file"
          accept=".json,.xml,.txt,application/json,application/xml,text/plain"
          className="mt-1 block text-sm"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) setContent(await file.text());
          }}
        />
      </label>
      <label className="block text-sm">
        <span className="font-medium text-slate-700">Plan text</span>
        <textarea
          required
          rows={16}
          spellCheck={false}
          placeholder="Paste a plan, or choose a file above"
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 font-mono text-xs"
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
      </label>
      <ActionError message={importer.error} className={FORM_ERROR} />
      <SubmitButton pending={importer.pending} pendingLabel="Importing…" disabled={!content.trim()} className={SUBMIT}>
        Import plan
      </SubmitButton>
    </form>
  );
}
