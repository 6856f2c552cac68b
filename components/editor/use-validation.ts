'use client';

import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { EDITOR_ISSUE_CAPS, validatePlan, type ValidationResult } from '@/lib/validate';
import { useCanvasFocus } from './canvas-focus';
import { useEditor } from './editor-context';

export interface Validation {
  result: ValidationResult;
  byTask: Map<string, { count: number; hasError: boolean }>;
  /** True until the plan as it now is has been checked: the first paint of a page does not wait for it. */
  pending: boolean;
}

/** When the editor opened without showing anything particular (a plan still being laid out), live validation starts this long after it mounted. */
const START_AT_THE_LATEST_MS = 1_500;

/**
 * False until the browser's first idle moment after the canvas showed what the editor opened
 * on (canvas-focus.tsx `shown`), or after START_AT_THE_LATEST_MS. Checking a 10,000-task plan
 * and drawing its issues took 100-150 ms, which ran before the linked task was drawn when it
 * started at the first idle moment after mounting.
 */
function useStartWhenShown(): boolean {
  const shown = useCanvasFocus((s) => s.shown);
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (started) return;
    const start = () => setStarted(true);
    let idleId: number | undefined;
    const whenIdle = () => {
      if (typeof requestIdleCallback === 'function') idleId = requestIdleCallback(start, { timeout: 1_000 });
      else start();
    };
    const timer = shown ? undefined : setTimeout(whenIdle, START_AT_THE_LATEST_MS);
    if (shown) whenIdle();
    return () => {
      clearTimeout(timer);
      if (idleId !== undefined) cancelIdleCallback(idleId);
    };
  }, [started, shown]);
  return started;
}

const NOT_YET: Validation = { result: { valid: true, issues: [] }, byTask: new Map(), pending: true };

// Shared by every panel that shows validation, so one edit validates the plan once.
const cache = new WeakMap<object, { subgraphs: unknown; registry: unknown; validation: Validation }>();

/** Live validation with the server's own rules (every issue, not the server's first 500), recomputed only when the tasks or registry change. */
export function useValidation(): Validation {
  // Nothing until the canvas has shown what it opened on, then deferred: checking 20,000 tasks
  // takes a few hundred milliseconds, which the page's first picture of the canvas should not
  // wait for (a deferred render alone still ran before the canvas's first frame).
  const idle = useStartWhenShown();
  const current = useEditor((s) => s.doc.plan);
  const tasks = useDeferredValue<typeof current | null>(idle ? current : null, null);
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
