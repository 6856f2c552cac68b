'use client';

import Link from '@/components/ui/link';
import { useEffect } from 'react';

/**
 * What a page shows when rendering it failed. The error's message and stack stay on the
 * server: an error from a server component reaches the browser as a generic message plus a
 * digest, and only the digest (which matches the server log line) is shown.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && 'digest' in error && typeof error.digest === 'string' ? error.digest : null;
  useEffect(() => {
    // The browser console of whoever hit it; the server has already logged the full error.
    console.error(error);
  }, [error]);
  return (
    <div className="mx-auto max-w-md px-6 py-16 text-center">
      <p className="text-sm font-semibold text-rose-700">Error</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="mt-2 text-slate-600">This page could not be shown. Nothing you saved was lost; trying again often helps.</p>
      {digest && (
        <p className="mt-2 text-xs text-slate-500">
          Reference for an administrator: <code className="font-mono">{digest}</code>
        </p>
      )}
      <div className="mt-6 flex justify-center gap-3">
        {/* retry() fetches the page from the server again, so a passing failure can recover. */}
        <button type="button" onClick={() => retry()} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Try again
        </button>
        <Link href="/" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Back to plans
        </Link>
      </div>
    </div>
  );
}
