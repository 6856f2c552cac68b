'use client';

import { useState } from 'react';
import { putResourceAction } from '@/app/registry/actions';
import type { ResourceKind } from '@/lib/registry/schema';
import { SECONDARY_BUTTON } from '@/components/form/styles';
import { jsonOrRefuse } from '@/components/form/parse-json';
import { JsonField } from '@/components/form/json-field';
import { PostForm } from '@/components/form/post-form';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

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
  const [text, setText] = useState(initialJson);
  const save = useServerAction(putResourceAction, { onSuccess: onDone });
  return (
    <PostForm
      className="space-y-3"
      onSubmit={() => {
        const parsed = jsonOrRefuse(text, save.fail);
        if (parsed) void save.run({ kind, key: resourceKey, resource: parsed.value });
      }}
    >
      <JsonField label={`JSON of ${resourceKey}`} value={text} onChange={setText} error={save.error} autoFocus />
      <div className="flex gap-2">
        <SubmitButton pending={save.pending} pendingLabel="Saving…">
          Save
        </SubmitButton>
        <button type="button" disabled={save.pending} onClick={onDone} className={SECONDARY_BUTTON}>
          Cancel
        </button>
      </div>
    </PostForm>
  );
}
