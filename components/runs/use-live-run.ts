'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RunResponse } from '@/lib/api/run-schemas';
import { isRunSettled } from '@/lib/runs/run-states';

export const runKey = (runId: string) => ['run', runId] as const;

async function fetchRun(runId: string): Promise<RunResponse> {
  const response = await fetch(`/api/runs/${encodeURIComponent(runId)}`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Reading the run answered ${response.status}`);
  return RunResponse.parse(await response.json());
}

/**
 * The run as GET /api/runs/{id} answers it, refetched whenever its event feed says something
 * happened, so the view follows the run live. The feed ends when the run has settled (a
 * cancelled run's aborted calls are recorded just after the run's own state); the browser's
 * EventSource reconnects after a dropped connection with Last-Event-ID.
 */
export function useLiveRun(initial: RunResponse): RunResponse {
  const runId = initial.run_id;
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: runKey(runId), queryFn: () => fetchRun(runId), initialData: initial, staleTime: 5_000 });
  const finished = isRunSettled(data.state, data.tasks.filter((task) => task.state === 'running').length);
  useEffect(() => {
    if (finished) return;
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    const refetch = () => void queryClient.invalidateQueries({ queryKey: runKey(runId) });
    source.addEventListener('run_event', refetch);
    // The server closes the stream when the run has settled: read its final state, then stop.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) refetch();
    });
    return () => source.close();
  }, [runId, finished, queryClient]);
  return data;
}
