'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { putResourceAction } from '@/app/registry/actions';
import type { ResourceKind } from '@/lib/registry/schema';
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from '@/components/form/styles';
import { parseJsonText } from '@/components/form/parse-json';
import { JsonField } from '@/components/form/json-field';

/** Inline JSON editor for one resource; saving replaces it under the same key. */
export function ResourceEditor({
  kind,
  resourceKey,
  initialJson,
  onDone,
}: {
  kind: ResourceKind;
  resourceKey: string;
  initialJson: string;
  onDone: () => void;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [text, setText] = useState(initialJson);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      // A click before hydration submits natively: POST keeps the JSON out of the URL.
      method="post"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parseJsonText(text);
        if (!parsed.ok) {
          setError(parsed.message);
          return;
        }
        startTransition(async () => {
          const result = await putResourceAction({ kind, key: resourceKey, resource: parsed.value });
          if (result.ok) {
            setError(null);
            onDone();
            router.refresh();
          } else {
            setError(result.error.message);
          }
        });
      }}
    >
      <JsonField label={`JSON of ${resourceKey}`} value={text} onChange={setText} error={error} autoFocus />
      <div className="flex gap-2">
        <button type="submit" disabled={pending} className={PRIMARY_BUTTON}>
          {pending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" disabled={pending} onClick={onDone} className={SECONDARY_BUTTON}>
          Cancel
        </button>
      </div>
    </form>
  );
}
