'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { importPlanAction } from '@/app/import/actions';
import { FORMAT_IDS, FORMAT_LABELS, type FormatId } from '@/lib/formats/format';


export function ImportForm() {
  const router = useRouter();
  const [content, setContent] = useState('');
  const [format, setFormat] = useState<FormatId | ''>('');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await importPlanAction({ content, format: format || undefined, title: title.trim() || undefined });
      if (result.ok) router.push(`/plans/${result.data.id}`);
      else setError(result.error.message);
    } catch {
      setError('Could not reach the server, or the file is larger than it accepts.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4">
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
      {error && (
        <p role="alert" className="rounded border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !content.trim()} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
        {busy ? 'Importing…' : 'Import plan'}
      </button>
    </form>
  );
}
