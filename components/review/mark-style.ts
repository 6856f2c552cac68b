import type { TaskMark } from '@/lib/plan';

// Plain data, not in a client module, so server components (the legend) read the same styles as the nodes.

/**
 * How each kind of mark looks. Never colour alone: every kind has its symbol and word on the
 * node and in the legend, and a removed task is drawn dashed.
 */
export const MARK_STYLE: Record<TaskMark['kind'] | 'removed', { symbol: string; label: string; badge: string; outline: string }> = {
  added: { symbol: '+', label: 'added', badge: 'bg-emerald-100 text-emerald-900', outline: 'outline-2 outline-offset-2 outline-emerald-600' },
  changed: { symbol: '~', label: 'changed', badge: 'bg-amber-100 text-amber-900', outline: 'outline-2 outline-offset-2 outline-amber-600' },
  replaces: { symbol: '⇄', label: 'replaces', badge: 'bg-violet-100 text-violet-900', outline: 'outline-2 outline-offset-2 outline-violet-600' },
  removed: { symbol: '−', label: 'removed', badge: 'bg-slate-200 text-slate-800', outline: 'outline-2 outline-dashed outline-slate-500' },
};
