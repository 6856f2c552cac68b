import { useId } from 'react';

/** A labelled textarea for a JSON object, with its parse error shown (and described) beneath. */
export function JsonField({ label, value, error, onChange }: { label: string; value: string; error?: string; onChange: (value: string) => void }) {
  const errorId = useId();
  return (
    <div className="text-sm">
      <label className="block">
        <span className="font-medium text-slate-700">{label}</span>
        <textarea
          rows={5}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 font-mono text-xs aria-[invalid=true]:border-rose-500"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {error && (
        <p id={errorId} className="mt-1 text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}
