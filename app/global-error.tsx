'use client';

import './globals.css';

/**
 * Replaces the root layout when the layout itself failed (the signed-in user or the inbox
 * count could not be read), so it brings its own document. Like app/error.tsx it shows the
 * digest, never the error's message.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && 'digest' in error && typeof error.digest === 'string' ? error.digest : null;
  return (
    <html lang="en">
      <body className="font-sans">
        <title>Something went wrong · Plangate</title>
        <main className="mx-auto max-w-md px-6 py-16 text-center">
          <p className="text-sm font-semibold text-rose-700">Error</p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight">Plangate could not load</h1>
          <p className="mt-2 text-slate-600">The server could not show this page. Nothing you saved was lost; trying again often helps.</p>
          {digest && (
            <p className="mt-2 text-xs text-slate-500">
              Reference for an administrator: <code className="font-mono">{digest}</code>
            </p>
          )}
          <div className="mt-6 flex justify-center gap-3">
            <button type="button" onClick={() => retry()} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
              Try again
            </button>
            {/* A full page load, not a client navigation: the root layout is what failed. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/" className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
              Back to plans
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
