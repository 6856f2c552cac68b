/**
 * The placeholder a route shows while its server component loads (the loading.tsx files).
 * Screen readers hear one polite "Loading…"; the grey blocks only hint at the page's shape,
 * so they are hidden from assistive technology. The pulse stops for reduced motion.
 */
export function PageSkeleton({ label, shape }: { label: string; shape: 'list' | 'plan' }) {
  return (
    <div role="status" aria-live="polite" className={shape === 'plan' ? 'flex h-full flex-col' : 'mx-auto max-w-5xl space-y-6 px-6 py-8'}>
      <span className="sr-only">Loading {label}…</span>
      {shape === 'plan' ? (
        <div aria-hidden="true" className="flex h-full flex-col animate-pulse motion-reduce:animate-none">
          <div className="flex items-center gap-4 border-b border-slate-200 bg-white px-4 py-3">
            <div className="h-4 w-12 rounded bg-slate-200" />
            <div className="h-5 w-64 rounded bg-slate-200" />
            <div className="h-5 w-20 rounded-full bg-slate-200" />
            <div className="ml-auto h-4 w-72 rounded bg-slate-200" />
          </div>
          <div className="min-h-64 flex-1 bg-slate-100" />
        </div>
      ) : (
        <div aria-hidden="true" className="space-y-6 animate-pulse motion-reduce:animate-none">
          <div className="space-y-2">
            <div className="h-7 w-56 rounded bg-slate-200" />
            <div className="h-4 w-96 max-w-full rounded bg-slate-200" />
          </div>
          <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
            {[0, 1, 2, 3, 4].map((row) => (
              <div key={row} className="h-5 rounded bg-slate-100" />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
