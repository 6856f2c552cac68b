'use client';

import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import type { DecisionNotice } from '@/lib/api/comment-schemas';
import { CountStoreContext, createCountStore } from './comment-counts';
import { openCountsByTask, useComments } from './use-comments';

export interface CommentsSettings {
  /** Editors and approvers write, resolve and reopen; viewers read. */
  canComment: boolean;
  /** The newest request for changes or rejection, while the plan is not back in review. */
  decision?: DecisionNotice | null;
}

export interface CommentsContextValue extends CommentsSettings {
  planId: string;
  revision: number;
}

const CommentsContext = createContext<CommentsContextValue | null>(null);

/** Comments for the editor: null when the page shows none (the read-only views). */
export function useCommentsContext(): CommentsContextValue | null {
  return useContext(CommentsContext);
}

/** Loads the plan's threads once for the whole editor and feeds the node badges; without settings, shows none. */
export function CommentsProvider({ settings, ...rest }: { planId: string; revision: number; settings?: CommentsSettings | null; children: React.ReactNode }) {
  return settings ? <LoadedComments settings={settings} {...rest} /> : rest.children;
}

function LoadedComments({ planId, revision, settings, children }: { planId: string; revision: number; settings: CommentsSettings; children: React.ReactNode }) {
  const [counts] = useState(createCountStore);
  const { data } = useComments(planId, revision, openCountsByTask);
  useEffect(() => {
    if (data) counts.set(data);
  }, [counts, data]);
  const { canComment, decision } = settings;
  const value = useMemo(() => ({ planId, revision, canComment, decision }), [planId, revision, canComment, decision]);
  return (
    <CommentsContext.Provider value={value}>
      <CountStoreContext.Provider value={counts}>{children}</CountStoreContext.Provider>
    </CommentsContext.Provider>
  );
}
