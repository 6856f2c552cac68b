import Form from 'next/form';
import { APPROVED_BASE, type ReviewHistory } from '@/lib/approval/review-base';
import { SMALL_BUTTON } from '@/components/form/styles';

/** Revisions offered by number; older ones are still reachable by ?base= in the URL. */
const LISTED = 200;

/**
 * What the review page compares the head with: any earlier revision, or the last approved
 * one. A GET form, so the choice is the page's URL (?base=3, ?base=approved): a link
 * repeats it, and it works before the page's scripts load. `selected` is the parameter in
 * use ('' for the default, which `defaultLabel` names).
 */
export function BasePicker({ planId, history, selected, defaultLabel }: { planId: string; history: ReviewHistory; selected: string; defaultLabel: string }) {
  const { head, lastDecided, lastViewed, lastApproved } = history;
  if (head <= 1) return null;
  const revisions = Array.from({ length: Math.min(head - 1, LISTED) }, (_, i) => head - 1 - i);
  if (revisions[revisions.length - 1] !== 1) revisions.push(1);
  const notes = (revision: number) =>
    [revision === lastDecided && 'your last review', revision === lastViewed && revision !== lastDecided && 'you last viewed', revision === lastApproved && 'last approved', revision === 1 && 'first']
      .filter(Boolean)
      .join(', ');
  return (
    <Form action={`/plans/${encodeURIComponent(planId)}/review`} className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor="review-base" className="font-medium text-slate-700">
        Compare with
      </label>
      <select id="review-base" name="base" defaultValue={selected} className="rounded-md border border-slate-300 px-2 py-1 text-sm">
        {/* Empty: the default, so the URL stays bare. */}
        <option value="">{defaultLabel}</option>
        {lastApproved !== null && <option value={APPROVED_BASE}>Last approved (revision {lastApproved})</option>}
        {revisions.map((revision) => {
          const note = notes(revision);
          return (
            <option key={revision} value={String(revision)}>
              Revision {revision}
              {note ? ` (${note})` : ''}
            </option>
          );
        })}
      </select>
      <button type="submit" className={SMALL_BUTTON}>
        Compare
      </button>
    </Form>
  );
}
