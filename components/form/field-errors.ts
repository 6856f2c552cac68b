import type { ActionFailure } from '@/components/query/use-server-action';

const isUnder = (path: string, field: string) => path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);

/**
 * A refusal split over a form's fields by its `details`: each field's messages, to show
 * beside the field, and `rest`, the message for the form's own alert when some problem
 * names no field of the form (or the refusal names none at all).
 */
export function fieldErrors<F extends string>(failure: ActionFailure | null, fields: readonly F[]): { byField: Partial<Record<F, string>>; rest: string | null } {
  const byField: Partial<Record<F, string>> = {};
  if (!failure) return { byField, rest: null };
  const details = failure.details ?? [];
  for (const field of fields) {
    const messages = details.filter((detail) => isUnder(detail.path, field)).map((detail) => detail.message);
    if (messages.length > 0) byField[field] = messages.join('; ');
  }
  const unplaced = details.length === 0 || details.some((detail) => !fields.some((field) => isUnder(detail.path, field)));
  return { byField, rest: unplaced ? failure.message : null };
}
