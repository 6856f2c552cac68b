'use client';

import { useId, useState } from 'react';
import { putResourceAction } from '@/app/registry/actions';
import { resourceKey, type Resource, type ResourceKind } from '@/lib/registry/schema';
import { FormStatus } from '@/components/form/form-status';
import { isJsonObject, jsonOrRefuse } from '@/components/form/parse-json';
import { JsonField } from '@/components/form/json-field';
import { PostForm } from '@/components/form/post-form';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

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
  const headingId = useId();
  const [text, setText] = useState(template);
  const add = useServerAction(putResourceAction, { onSuccess: () => setText(template) });
  const keyField = kind === 'llms' ? 'name' : 'id';
  return (
    <PostForm
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border border-dashed border-slate-300 bg-white p-4"
      onSubmit={() => {
        const parsed = jsonOrRefuse(text, add.fail);
        if (!parsed) return;
        const key = isJsonObject(parsed.value) ? resourceKey(parsed.value as unknown as Resource) : undefined;
        if (typeof key !== 'string' || !key) return add.fail(`The ${singular} needs a JSON object with a "${keyField}".`);
        if (existingKeys.includes(key) && !window.confirm(`A ${singular} "${key}" already exists. Replace it?`)) return add.reset();
        void add.run({ kind, key, resource: parsed.value });
      }}
    >
      {/* Not a heading: the section's heading ("Tools") is the one to find the kind by. */}
      <p id={headingId} className="text-sm font-semibold text-slate-900">
        Add to {heading}
      </p>
      <JsonField label={`New ${singular} (JSON)`} value={text} onChange={setText} error={add.error} minRows={4} maxRows={16} />
      {add.data && (
        <FormStatus>
          Saved {singular} {resourceKey(add.data)}.
        </FormStatus>
      )}
      <SubmitButton pending={add.pending} pendingLabel="Adding…" aria-label={`Add ${singular}`}>
        Add
      </SubmitButton>
    </PostForm>
  );
}
