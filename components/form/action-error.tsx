/** The look of a form's own alert: a block of its own under the fields, not a note beside a button. */
export const BLOCK_ERROR = 'block rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800';

/**
 * Where a refused action says why, announced to screen readers as it appears. Give it an
 * `id` when a field points at it with aria-describedby.
 */
export function ActionError({
  message,
  id,
  className = 'text-xs text-rose-700',
}: {
  message: string | null | undefined;
  id?: string;
  className?: string;
}) {
  if (!message) return null;
  return (
    <span id={id} role="alert" className={className}>
      {message}
    </span>
  );
}
