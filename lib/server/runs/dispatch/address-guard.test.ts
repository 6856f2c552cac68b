import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, AllowListInvalid, guardedFetch, parseDispatchAllow, RedirectRefused, restrictedClass } from './address-guard';

// The address guard against real sockets: a server on 127.0.0.1 that counts what reaches it,
// and addresses of every refused class, which must be refused before any connection.

let server: Server;
let hits = 0;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits += 1;
    if (req.url === '/redirect') return res.writeHead(302, { location: `${base}/ok` }).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** What guardedFetch threw (its cause, as fetch wraps connection errors), or the answer's text. */
async function attempt(url: string, allow?: string): Promise<unknown> {
  try {
    const response = await guardedFetch(url, { signal: AbortSignal.timeout(5_000) }, allow === undefined ? {} : { PLANGATE_DISPATCH_ALLOW: allow });
    return await response.text();
  } catch (error) {
    return error instanceof TypeError && error.cause ? error.cause : error;
  }
}

describe('the address guard', () => {
  const port = () => new URL(base).port;

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['IPv6 loopback', 'http://[::1]:PORT/', 'loopback'],
    ['a private 10.x address', 'http://10.0.0.7:PORT/', 'private'],
    ['a private 172.16/12 address', 'http://172.20.1.1/', 'private'],
    ['a private 192.168/16 address', 'http://192.168.1.1/', 'private'],
    ['a CGNAT address', 'http://100.64.0.1/', 'shared (CGNAT)'],
    ['IPv4 loopback', 'http://127.0.0.1:PORT/', 'loopback'],
    ['another loopback address', 'http://127.1.2.3:PORT/', 'loopback'],
    ['the unspecified address', 'http://0.0.0.0:PORT/', 'unspecified'],
    ['multicast', 'http://224.0.0.1/', 'multicast'],
    ['IPv6 link-local', 'http://[fe80::1]/', 'link-local'],
    ['IPv6 unique-local', 'http://[fd00::1]/', 'unique-local'],
    ['IPv6 multicast', 'http://[ff02::1]/', 'multicast'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:PORT/', 'loopback'],
    ['NAT64-embedded loopback', 'http://[64:ff9b::7f00:1]/', 'loopback'],
    ['a name that resolves to loopback', 'http://localhost:PORT/', 'loopback'],
  ])('refuses %s before connecting, naming the class', async (_what, template, addressClass) => {
    const before = hits;
    const refused = await attempt(template.replace('PORT', port()));
    expect(refused).toBeInstanceOf(AddressRefused);
    expect((refused as AddressRefused).addressClass).toBe(addressClass);
    expect((refused as Error).message).toContain('PLANGATE_DISPATCH_ALLOW');
    expect(hits).toBe(before);
  });

  it('admits a listed address, network or host name, and nothing else', async () => {
    for (const allow of ['127.0.0.1', '127.0.0.0/8', '10.0.0.0/8, 127.0.0.1', '::ffff:127.0.0.1']) {
      expect(await attempt(`${base}/ok`, allow), allow).toBe('reached');
    }
    expect(await attempt(`http://localhost:${port()}/ok`, 'localhost')).toBe('reached');
    // Allowing one network admits no other.
    expect(await attempt('http://169.254.169.254/', '127.0.0.0/8')).toBeInstanceOf(AddressRefused);
    expect(await attempt(`http://[::1]:${port()}/`, '127.0.0.1')).toBeInstanceOf(AddressRefused);
    // An allowed host name admits that name, not an address it happens to share.
    expect(await attempt(`${base}/ok`, 'localhost')).toBeInstanceOf(AddressRefused);
  });

  it('follows no redirect, not even to an allowed address: the 3xx is the failure', async () => {
    const before = hits;
    const refused = await attempt(`${base}/redirect`, '127.0.0.1');
    expect(refused).toBeInstanceOf(RedirectRefused);
    expect((refused as RedirectRefused).status).toBe(302);
    expect(hits).toBe(before + 1);
  });

  it('refuses a malformed allow-list entry by name rather than guess', async () => {
    expect(() => parseDispatchAllow('127.0.0.1, http://10.0.0.1/')).toThrow(AllowListInvalid);
    expect(() => parseDispatchAllow('10.0.0.0/33')).toThrow('"10.0.0.0/33"');
    expect(await attempt(`${base}/ok`, 'not a host')).toBeInstanceOf(AllowListInvalid);
    expect(parseDispatchAllow(' ,127.0.0.1,, Internal.Example. ').hosts).toEqual(new Set(['internal.example']));
  });

  it('classifies public addresses as ordinary', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '100.128.0.1', '172.32.0.1']) expect(restrictedClass(address), address).toBeNull();
  });
});
