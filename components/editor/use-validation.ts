'use client';

import { useDeferredValue, useMemo } from 'react';
import { EDITOR_ISSUE_CAPS, validatePlan, type ValidationResult } from '@/lib/validate';
import { useEditor } from './editor-context';

export interface Validation {
  result: ValidationResult;
  byTask: Map<string, { count: number; hasError: boolean }>;
  /** True until the plan as it now is has been checked: the first paint of a page does not wait for it. */
  pending: boolean;
}

const NOT_YET: Validation = { result: { valid: true, issues: [] }, byTask: new Map(), pending: true };

// Shared by every panel that shows validation, so one edit validates the plan once.
const cache = new WeakMap<object, { subgraphs: unknown; registry: unknown; validation: Validation }>();

/** Live validation with the server's own rules (every issue, not the server's first 500), recomputed only when the tasks or registry change. */
export function useValidation(): Validation {
  // Deferred, and nothing on the first render: checking 20,000 tasks takes a few hundred
  // milliseconds, which the page (the overview, the canvas) should not wait for.
  const current = useEditor((s) => s.doc.plan);
  const tasks = useDeferredValue<typeof current | null>(current, null);
  const subgraphs = useEditor((s) => s.doc.subgraphs);
  const registry = useEditor((s) => s.registry);
  return useMemo(() => {
    if (tasks === null) return NOT_YET;
    const cached = cache.get(tasks);
    if (cached?.subgraphs === subgraphs && cached.registry === registry) return cached.validation;
    const result = validatePlan(tasks, registry, subgraphs, EDITOR_ISSUE_CAPS);
    const byTask = new Map<string, { count: number; hasError: boolean }>();
    for (const issue of result.issues) {
      for (const id of new Set(issue.task_ids)) {
        const entry = byTask.get(id) ?? { count: 0, hasError: false };
        entry.count += 1;
        entry.hasError ||= issue.severity === 'error';
        byTask.set(id, entry);
      }
    }
    const validation = { result, byTask, pending: false };
    cache.set(tasks, { subgraphs, registry, validation });
    return validation;
  }, [tasks, registry, subgraphs]);
}
