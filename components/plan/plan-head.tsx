'use client';

import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { StatusChip } from '@/components/plan/status-chip';
import { SubmitForReviewButton, type ReviewerOption } from '@/components/plan/submit-for-review-button';
import type { PlanStatus } from '@/lib/approval/plan-status';

/** What the editor page's header shows about the head revision; a save answers with it. */
export interface PlanHead {
  revision: number;
  status: PlanStatus;
  content_hash: string;
}

export const planHeadKey = (planId: string) => ['plan-head', planId] as const;

const SUBMITTABLE = new Set<PlanStatus>(['draft', 'changes_requested']);

/**
 * The head as the server rendered it, replaced by what a save answers (SaveControls sets
 * it), so saving never renders the whole page again. Nothing is fetched here: a fresh
 * server render (another action's refresh, a navigation) overwrites it.
 */
export function usePlanHead(planId: string, rendered: PlanHead): PlanHead {
  const queryClient = useQueryClient();
  const { revision, status, content_hash } = rendered;
  useEffect(() => {
    queryClient.setQueryData(planHeadKey(planId), { revision, status, content_hash });
  }, [queryClient, planId, revision, status, content_hash]);
  const { data } = useQuery({ queryKey: planHeadKey(planId), queryFn: skipToken, initialData: rendered, staleTime: Infinity });
  return data ?? rendered;
}

/** The status chip and content hash of the head revision the editor is on. */
export function PlanHeadStatus({ planId, rendered }: { planId: string; rendered: PlanHead }) {
  const head = usePlanHead(planId, rendered);
  return (
    <>
      <StatusChip status={head.status} />
      <span className="font-mono text-[11px] text-slate-500" title={head.content_hash}>
        {head.content_hash.slice(0, 19)}
      </span>
    </>
  );
}

/** Submit for review, offered while the head is a draft or was sent back. */
export function PlanHeadSubmit({
  planId,
  rendered,
  reviewers,
  previousReviewers,
}: {
  planId: string;
  rendered: PlanHead;
  reviewers: ReviewerOption[];
  previousReviewers: string[];
}) {
  const head = usePlanHead(planId, rendered);
  if (!SUBMITTABLE.has(head.status)) return null;
  return <SubmitForReviewButton planId={planId} revision={head.revision} contentHash={head.content_hash} reviewers={reviewers} previousReviewers={previousReviewers} />;
}
