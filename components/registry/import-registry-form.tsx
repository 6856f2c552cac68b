'use client';

import { useId, useState } from 'react';
import { importRegistryAction } from '@/app/registry/actions';
import { RESOURCE_KINDS } from '@/lib/registry/schema';
import { ActionError, BLOCK_ERROR } from '@/components/form/action-error';
import { CardForm } from '@/components/form/card-form';
import { FormStatus } from '@/components/form/form-status';
import { TEXTAREA } from '@/components/form/styles';
import { jsonOrRefuse } from '@/components/form/parse-json';
import { SubmitButton } from '@/components/form/submit-button';
import { useServerAction } from '@/components/query/use-server-action';

/** Replaces the whole registry with pasted JSON (the shape "Download registry JSON" gives). */
export function ImportRegistryForm() {
  const errorId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const importer = useServerAction(importRegistryAction, { onSuccess: () => setText('') });
  const registry = importer.data;
  const imported = registry && RESOURCE_KINDS.reduce((sum, kind) => sum + registry[kind].length, 0);
  return (
    <CardForm
      title="Import registry"
      onSubmit={() => {
        const parsed = jsonOrRefuse(text, importer.fail);
        if (!parsed) return;
        if (!window.confirm('Replace the whole registry with this JSON? Every resource not in it is removed.')) return importer.reset();
        void importer.run({ registry: parsed.value });
      }}
    >
      <label className="block text-sm font-medium text-slate-700">
        Registry JSON
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={10}
          spellCheck={false}
          placeholder='{ "agents": [], "tools": [], "functions": [], "llms": [], "dsl_workflows": [] }'
          aria-describedby={importer.error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={importer.error ? true : undefined}
          className={TEXTAREA}
        />
        <span id={hintId} className="mt-1 block text-xs font-normal text-slate-500">
          Replaces every resource of every kind; a kind left out is emptied.
        </span>
      </label>
      <ActionError id={errorId} message={importer.error} className={BLOCK_ERROR} />
      {imported !== undefined && (
        <FormStatus>
          Imported {imported} {imported === 1 ? 'resource' : 'resources'}.
        </FormStatus>
      )}
      <SubmitButton pending={importer.pending} pendingLabel="Importing…">
        Import and replace
      </SubmitButton>
    </CardForm>
  );
}
