'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { putResourceAction } from '@/app/registry/actions';
import { resourceKey, type Resource, type ResourceKind } from '@/lib/registry/schema';
import { PRIMARY_BUTTON } from '@/components/form/styles';
import { isJsonObject, parseJsonText } from '@/components/form/parse-json';
import { JsonField } from '@/components/form/json-field';

/** Adds one resource of a kind from JSON; its key is the JSON's own id (or name, for LLMs). */
export function AddResourceForm({
  kind,
  heading,
  singular,
  template,
  existingKeys,
}: {
  kind: ResourceKind;
  heading: string;
  singular: string;
  template: string;
  /** Keys already in this kind: adding one of them again would replace it, so ask first. */
  existingKeys: string[];
}) {
  const router = useRouter();
  const headingId = useId();
  const [pending, startTransition] = useTransition();
  const [text, setText] = useState(template);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const keyField = kind === 'llms' ? 'name' : 'id';
  return (
    <form
      // A click before hydration submits natively: POST keeps the JSON out of the URL.
      method="post"
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border border-dashed border-slate-300 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        setAdded(null);
        const parsed = parseJsonText(text);
        if (!parsed.ok) {
          setError(parsed.message);
          return;
        }
        const key = isJsonObject(parsed.value) ? resourceKey(parsed.value as unknown as Resource) : undefined;
        if (typeof key !== 'string' || !key) {
          setError(`The ${singular} needs a JSON object with a "${keyField}".`);
          return;
        }
        if (existingKeys.includes(key) && !window.confirm(`A ${singular} "${key}" already exists. Replace it?`)) return;
        startTransition(async () => {
          const result = await putResourceAction({ kind, key, resource: parsed.value });
          if (result.ok) {
            setError(null);
            setAdded(key);
            setText(template);
            router.refresh();
          } else {
            setError(result.error.message);
          }
        });
      }}
    >
      {/* Not a heading: the section's heading ("Tools") is the one to find the kind by. */}
      <p id={headingId} className="text-sm font-semibold text-slate-900">
        Add to {heading}
      </p>
      <JsonField label={`New ${singular} (JSON)`} value={text} onChange={setText} error={error} minRows={4} maxRows={16} />
      {added && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Saved {singular} {added}.
        </p>
      )}
      <button type="submit" disabled={pending} aria-label={`Add ${singular}`} className={PRIMARY_BUTTON}>
        {pending ? 'Adding…' : 'Add'}
      </button>
    </form>
  );
}
