'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { askToSignIn, InlineSignInHost, useInlineSignIns } from '@/components/auth/inline-sign-in';
import { ActionError } from '@/components/form/action-error';
import { SMALL_BUTTON, SMALL_PRIMARY_BUTTON } from '@/components/form/styles';
import type { ActionFailure } from '@/components/query/use-server-action';
import { resultOf } from '@/lib/api/action-result';
import type { LiveState, PlanActivity, PresentUser } from '@/lib/api/presence-schemas';
import { useEditor, useEditorStore } from './editor-context';
import { MergeDialog } from './merge-dialog';
import { planRevisionQuery } from './plan-revision-query';

/** How often an open editor asks what changed; paused while the tab is hidden. */
export const LIVE_POLL_MS = 2_500;

class HeartbeatError extends Error {
  constructor(readonly failure: ActionFailure) {
    super(failure.message);
  }
}

const presenceUrl = (planId: string) => `/api/plans/${encodeURIComponent(planId)}/presence`;

/**
 * One heartbeat, through a route rather than a server action: a browser runs its server
 * actions one at a time, so a beat every few seconds would hold up saves and clicks.
 */
async function beat(planId: string, body: { session_id: string; revision: number; dirty: boolean }): Promise<LiveState> {
  let response: Response;
  try {
    response = await fetch(presenceUrl(planId), { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new HeartbeatError({ code: 'unreachable', message: 'The server could not be reached' });
  }
  const answer = await resultOf<LiveState>(response, 'The live state could not be read');
  if (!answer.ok) throw new HeartbeatError(answer.error);
  return answer.data;
}

/** Forgets this tab on the server; keepalive lets it go out while the page unloads. */
function leave(planId: string, session_id: string) {
  void fetch(presenceUrl(planId), { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ session_id }), keepalive: true }).catch(
    () => undefined,
  );
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "40 seconds ago", "1 minute ago", "3 hours ago". */
export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 10) return 'just now';
  if (seconds < 60) return relative.format(-seconds, 'second');
  if (seconds < 3600) return relative.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format(-Math.floor(seconds / 86_400), 'day');
}

/** One gate event as a sentence: "approver approved r4". */
export function activitySentence(event: PlanActivity): string {
  const r = event.revision === null ? '' : ` r${event.revision}`;
  switch (event.kind) {
    case 'created':
      return `${event.actor} created the plan`;
    case 'revised':
      return event.layout_only ? `${event.actor} moved tasks in${r}` : `${event.actor} saved${r}`;
    case 'submitted':
      return `${event.actor} submitted${r} for review`;
    case 'approved':
      return `${event.actor} approved${r}`;
    case 'changes_requested':
      return `${event.actor} requested changes on${r}`;
    case 'rejected':
      return `${event.actor} rejected${r}`;
    case 'superseded':
      return `${event.actor} voided the approval of${r}`;
  }
}

function presenceText(user: PresentUser): string {
  const who = user.self ? `${user.username} (you, another tab` : `${user.username} (`;
  const what = user.dirty ? `editing r${user.revision}, unsaved changes` : `viewing r${user.revision}`;
  return `${who}${user.self ? ', ' : ''}${what})`;
}

function newSessionId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * Live state on the plan's own page only: a review page or a pinned revision shows one
 * revision on purpose, and offering to load another there would be wrong.
 */
export function LivePlanState() {
  const planId = useEditor((s) => s.planId);
  const pathname = usePathname();
  return pathname === `/plans/${planId}` ? <LiveBar /> : null;
}

/**
 * What is happening to this plan elsewhere, as it happens: a newer revision or a decision,
 * and who else has it open. Every open tab beats every few seconds with its revision and
 * whether it has unsaved edits; the answer drives this bar.
 */
function LiveBar() {
  const store = useEditorStore();
  const router = useRouter();
  const planId = useEditor((s) => s.planId);
  const baseRevision = useEditor((s) => s.baseRevision);
  const dirty = useEditor((s) => s.doc !== s.savedDoc);
  const readOnly = useEditor((s) => s.readOnly);
  const [session_id] = useState(newSessionId);
  const [openedAt] = useState(() => Date.now());
  const [merging, setMerging] = useState<{ revision: number; author: string } | null>(null);
  const [loading, setLoading] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const live = useQuery<LiveState, HeartbeatError>({
    queryKey: ['plan-live', planId, session_id],
    // No beating while signed out: it resumes once a beat succeeds again (after signing in).
    refetchInterval: (query) => (query.state.error?.failure.code === 'unauthenticated' ? false : LIVE_POLL_MS),
    // Hidden tabs stop beating (and so drop out of others' "also here" after a while).
    refetchIntervalInBackground: false,
    staleTime: 0,
    queryFn: async () => {
      const { baseRevision: revision, doc, savedDoc } = store.getState();
      return beat(planId, { session_id, revision, dirty: doc !== savedDoc });
    },
  });

  // A beat goes out at once when the editor gets or loses unsaved edits, so others learn it promptly.
  const refetch = live.refetch;
  const firstBeat = useRef(true);
  useEffect(() => {
    if (firstBeat.current) {
      firstBeat.current = false;
      return;
    }
    void refetch();
  }, [dirty, baseRevision, refetch]);

  // Signing in again anywhere on the page (a save that asked, say) resumes the beats.
  const signIns = useInlineSignIns();
  useEffect(() => {
    if (signIns > 0) void refetch();
  }, [signIns, refetch]);

  useEffect(() => {
    const onPageHide = () => leave(planId, session_id);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      leave(planId, session_id);
    };
  }, [planId, session_id]);

  // The server-rendered header and approval banner follow a new head or status; not a head
  // this editor saved itself (the save already refreshed them).
  const head = live.data?.head;
  const seen = useRef<{ revision: number; status: string } | null>(null);
  useEffect(() => {
    if (!head) return;
    const before = seen.current;
    seen.current = { revision: head.revision, status: head.status };
    if (before === null || (before.revision === head.revision && before.status === head.status)) return;
    const ownSave = head.revision !== before.revision && head.revision === store.getState().savedHere;
    if (!ownSave) router.refresh();
  }, [head, router, store]);

  // A clean editor simply loads the newer revision when asked; edits are never dropped silently.
  const newer = head && head.revision > baseRevision ? head.revision : null;
  const queryClient = useQueryClient();
  async function loadNewer(revision: number) {
    setLoading(revision);
    try {
      const doc = await queryClient.fetchQuery(planRevisionQuery(planId, revision));
      // Edits made while it loaded are not thrown away: they go through the merge instead.
      if (store.getState().doc === store.getState().savedDoc) store.getState().loadRevision(doc, revision);
      setLoadError(null);
    } catch (error) {
      setLoadError(`Could not load r${revision}: ${(error as Error).message}`);
    } finally {
      setLoading(null);
    }
  }

  const sessionEnded = live.error?.failure.code === 'unauthenticated';
  const latest = live.data?.activity[0];
  const recent = latest && (Date.parse(latest.at) >= openedAt - 60_000 || newer !== null) ? latest : null;
  const others = live.data?.present ?? [];
  const now = live.dataUpdatedAt || openedAt;

  return (
    <>
      <InlineSignInHost />
      {merging && <MergeDialog revision={merging.revision} author={merging.author} onClose={() => setMerging(null)} />}
      {/* One line of fixed height, its actions at the end, there from the first paint: news
          arriving with the first heartbeat must not push the canvas down under the pointer. */}
      <section
        aria-label="Live plan state"
        className={`flex h-8 shrink-0 items-center gap-3 overflow-hidden border-b px-3 text-sm ${
          sessionEnded || newer || recent || others.length ? 'border-sky-200 bg-sky-50 text-sky-950' : 'border-slate-200 bg-white text-slate-600'
        }`}
      >
        <div role="status" aria-live="polite" className="flex min-w-0 flex-1 items-center gap-x-3 truncate [&>span]:truncate">
          {sessionEnded ? (
            <span>Your session ended. Sign in again to save; your changes here are kept.</span>
          ) : newer !== null && head ? (
            <span>
              <strong className="font-semibold">
                {head.author} saved r{newer}
              </strong>{' '}
              · {ago(head.saved_at, now)}
              {recent && recent.kind !== 'revised' ? ` · ${activitySentence(recent)}` : ''}
              {dirty ? ` · you have unsaved changes on r${baseRevision}` : ''}
            </span>
          ) : recent ? (
            <span>
              {activitySentence(recent)} · {ago(recent.at, now)}
            </span>
          ) : live.data && others.length === 0 ? (
            <span>No one else has this plan open</span>
          ) : null}
          {others.length > 0 && <span>Also here: {others.map(presenceText).join(', ')}</span>}
        </div>
        <ActionError message={loadError} />
        {(sessionEnded || newer !== null) && (
          <div className="flex shrink-0 gap-2">
            {sessionEnded && (
              <button
                type="button"
                className={SMALL_PRIMARY_BUTTON}
                onClick={() =>
                  void askToSignIn('Your session ended; sign in again to keep working. Your unsaved changes are kept.', readOnly ? 'viewer' : 'editor').then(
                    (ok) => ok && void refetch(),
                  )
                }
              >
                Sign in again
              </button>
            )}
            {!sessionEnded && newer !== null && head && !dirty && (
              <button type="button" className={SMALL_PRIMARY_BUTTON} disabled={loading !== null} onClick={() => void loadNewer(newer)}>
                {loading !== null ? `Loading r${newer}…` : `Load r${newer}`}
              </button>
            )}
            {!sessionEnded && newer !== null && head && dirty && !readOnly && (
              <button type="button" className={SMALL_BUTTON} onClick={() => setMerging({ revision: newer, author: head.author })}>
                Review and apply my changes on top of r{newer}
              </button>
            )}
          </div>
        )}
      </section>
    </>
  );
}
