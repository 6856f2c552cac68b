'use client';

import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import type { ActionResult } from '@/lib/api/action-result';

export type ActionFailure = Extract<ActionResult<unknown>, { ok: false }>['error'];

/** Thrown inside the mutation so TanStack Query keeps it as the mutation's error. */
class ActionError extends Error {
  constructor(readonly failure: ActionFailure) {
    super(failure.message);
  }
}

const UNREACHABLE: ActionFailure = {
  code: 'unreachable',
  message: 'The server could not be reached, or refused a request this large. Nothing was changed; try again.',
};

// A callback of the component's own (onSuccess) can throw too; it is reported, not lost.
const failureOf = (error: Error): ActionFailure => (error instanceof ActionError ? error.failure : { code: 'client', message: error.message });

export interface ServerActionOptions<I, T> {
  onSuccess?: (data: T, input: I) => void;
  /** The action was refused, or the server could not be reached (undo an optimistic change here). */
  onError?: (failure: ActionFailure, input: I) => void;
  /** Query keys whose data the action changed. */
  invalidate?: QueryKey[];
  /**
   * Re-render the server components after the action: 'success' (default), 'always' (also
   * after a refusal, when a refusal usually means the page is out of date) or 'never'.
   */
  refresh?: 'success' | 'always' | 'never';
}

/**
 * The one way a component calls a server action: pending state, the typed failure, cache
 * invalidation and the server components' refresh, all in one place.
 */
export function useServerAction<I, T>(action: (input: I) => Promise<ActionResult<T>>, options: ServerActionOptions<I, T> = {}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { refresh = 'success' } = options;
  // A refusal found in the browser before anything was sent (text that is not JSON, say),
  // shown exactly where the server's would be.
  const [local, setLocal] = useState<ActionFailure | null>(null);
  const mutation = useMutation<T, Error, I>({
    mutationFn: async (input) => {
      let result: ActionResult<T>;
      try {
        result = await action(input);
      } catch {
        throw new ActionError(UNREACHABLE);
      }
      if (!result.ok) throw new ActionError(result.error);
      return result.data;
    },
    onSuccess: async (data, input) => {
      options.onSuccess?.(data, input);
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (refresh !== 'never') router.refresh();
    },
    onError: (error, input) => {
      options.onError?.(failureOf(error), input);
      if (refresh === 'always') router.refresh();
    },
  });
  const { reset: resetMutation } = mutation;
  const reset = useCallback(() => {
    setLocal(null);
    resetMutation();
  }, [resetMutation]);
  const fail = useCallback(
    (message: string, details?: ActionFailure['details']) => {
      resetMutation();
      setLocal({ code: 'bad_request', message, ...(details ? { details } : {}) });
    },
    [resetMutation],
  );
  const failure = local ?? (mutation.error ? failureOf(mutation.error) : null);
  return {
    /** Runs the action; resolves to the data, or undefined when it failed (see `failure`). */
    run: async (input: I): Promise<T | undefined> => {
      setLocal(null);
      try {
        return await mutation.mutateAsync(input);
      } catch {
        return undefined;
      }
    },
    pending: mutation.isPending,
    failure,
    error: failure?.message ?? null,
    /** What the last run gave back; cleared when the next run starts, fails or is reset. */
    data: mutation.data,
    /** Refuses before sending: clears the last result and shows this like a server refusal. */
    fail,
    reset,
  };
}
