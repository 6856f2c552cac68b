'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { importRegistryAction } from '@/app/registry/actions';
import { RESOURCE_KINDS } from '@/lib/registry/schema';
import { PRIMARY_BUTTON, TEXTAREA } from '@/components/form/styles';
import { parseJsonText } from '@/components/form/parse-json';

/** Replaces the whole registry with pasted JSON (the shape "Download registry JSON" gives). */
export function ImportRegistryForm() {
  const router = useRouter();
  const errorId = useId();
  const hintId = useId();
  const [pending, startTransition] = useTransition();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [imported, setImported] = useState<number | null>(null);
  return (
    <form
      // A click before hydration submits natively: POST keeps the JSON out of the URL.
      method="post"
      aria-labelledby="import-registry-heading"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        setImported(null);
        const parsed = parseJsonText(text);
        if (!parsed.ok) {
          setError(parsed.message);
          return;
        }
        if (!window.confirm('Replace the whole registry with this JSON? Every resource not in it is removed.')) return;
        startTransition(async () => {
          const result = await importRegistryAction({ registry: parsed.value });
          if (result.ok) {
            setError(null);
            setImported(RESOURCE_KINDS.reduce((sum, kind) => sum + result.data[kind].length, 0));
            setText('');
            router.refresh();
          } else {
            setError(result.error.message);
          }
        });
      }}
    >
      <h2 id="import-registry-heading" className="text-lg font-semibold">
        Import registry
      </h2>
      <label className="block text-sm font-medium text-slate-700">
        Registry JSON
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={10}
          spellCheck={false}
          placeholder='{ "agents": [], "tools": [], "functions": [], "llms": [], "dsl_workflows": [] }'
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
          className={TEXTAREA}
        />
        <span id={hintId} className="mt-1 block text-xs font-normal text-slate-500">
          Replaces every resource of every kind; a kind left out is emptied.
        </span>
      </label>
      {error && (
        <p id={errorId} role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      )}
      {imported !== null && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Imported {imported} {imported === 1 ? 'resource' : 'resources'}.
        </p>
      )}
      <button type="submit" disabled={pending} className={PRIMARY_BUTTON}>
        {pending ? 'Importing…' : 'Import and replace'}
      </button>
    </form>
  );
}
