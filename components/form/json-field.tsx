'use client';

import { useId } from 'react';
import { textareaRows } from './parse-json';
import { TEXTAREA } from './styles';

/** A labelled JSON textarea with its inline error beneath (and described by it). */
export function JsonField({
  label,
  value,
  onChange,
  error,
  minRows,
  maxRows,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  minRows?: number;
  maxRows?: number;
  autoFocus?: boolean;
}) {
  const errorId = useId();
  return (
    <>
      <label className="block text-sm font-medium text-slate-700">
        {label}
        <textarea
          value={value}
          onChange={(event) => onChange(event.target.value)}
          rows={textareaRows(value, minRows, maxRows)}
          spellCheck={false}
          autoFocus={autoFocus}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          className={TEXTAREA}
        />
      </label>
      {error && (
        <p id={errorId} role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {error}
        </p>
      )}
    </>
  );
}
