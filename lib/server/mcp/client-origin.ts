import 'server-only';

/**
 * The origin the client addressed, for links it can follow: the Host header (a proxy's
 * X-Forwarded-Host and -Proto first, as the origin check reads them), not the request URL,
 * which Next builds from the server's own hostname.
 */
export function clientOrigin(request: Request): string {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(',')[0].trim() || undefined;
  const host = first('x-forwarded-host') ?? first('host') ?? url.host;
  const protocol = first('x-forwarded-proto') ?? url.protocol.slice(0, -1);
  // A host is a name or address and a port: anything more would smuggle a path or credentials into the link.
  if ((protocol !== 'http' && protocol !== 'https') || !/^([\w.-]+|\[[\da-f:.]+\])(:\d{1,5})?$/i.test(host)) return url.origin;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return url.origin; // a port past 65535
  }
}
