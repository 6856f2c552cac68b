import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy } from '@/lib/server/platform/http/content-security-policy';

/**
 * A fresh nonce for every request, in the Content-Security-Policy of the response and of the
 * request (where Next reads it to put it on the scripts it writes into the page), so no
 * inline script runs without it. Static bundles are left out: they run no policy of their own.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image).*)'],
};
