import 'server-only';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { indefiniteArticle } from '@/lib/validate/indefinite-article';

// Where Plangate may send a request that an editor configured (a registry endpoint) or an
// admin configured (an outgoing webhook): not into its own network. An address that is
// loopback, private, shared (CGNAT), link-local, unique-local, multicast, unspecified or
// reserved is refused unless the operator lists its host or network in
// PLANGATE_DISPATCH_ALLOW. The check runs inside the connection: the name is resolved once,
// each address checked, and the socket opened to the very address that passed, so a DNS
// answer that changes between a check and the connect (rebinding) reaches nothing. No
// redirect is followed: a 3xx is a refusal, so no hop escapes the check either.

export const DISPATCH_ALLOW_VAR = 'PLANGATE_DISPATCH_ALLOW';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [address: string, prefix: number];

/** The address classes refused by default, in the order a match is named. */
const CLASSES: readonly { name: string; v4?: readonly Range[]; v6?: readonly Range[] }[] = [
  { name: 'unspecified', v4: [['0.0.0.0', 8]], v6: [['::', 128]] },
  { name: 'loopback', v4: [['127.0.0.0', 8]], v6: [['::1', 128]] },
  { name: 'private', v4: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]] },
  { name: 'shared (CGNAT)', v4: [['100.64.0.0', 10]] },
  { name: 'link-local', v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] },
  { name: 'unique-local', v6: [['fc00::', 7], ['fec0::', 10]] },
  { name: 'multicast', v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] },
  {
    name: 'reserved',
    v4: [['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['240.0.0.0', 4]],
    // IPv4-compatible (deprecated), discard-only and documentation prefixes.
    v6: [['::', 96], ['100::', 64], ['2001:db8::', 32]],
  },
];

/** The NAT64 prefix (RFC 6052) embeds an IPv4 address: 64:ff9b::7f00:1 is 127.0.0.1 behind a translator. */
function nat64(address: string, prefix: number): Range {
  const [a, b, c, d] = address.split('.').map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return [`64:ff9b::${hex(a, b)}:${hex(c, d)}`, 96 + prefix];
}

const CLASS_LISTS = CLASSES.map(({ name, v4 = [], v6 = [] }) => {
  const list = new BlockList();
  // IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) match the IPv4 rules: BlockList maps them.
  for (const [address, prefix] of v4) {
    list.addSubnet(address, prefix, 'ipv4');
    const [mapped, mappedPrefix] = nat64(address, prefix);
    list.addSubnet(mapped, mappedPrefix, 'ipv6');
  }
  for (const [address, prefix] of v6) list.addSubnet(address, prefix, 'ipv6');
  return { name, list };
});

const familyOf = (address: string): Family => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The refused class `address` (an IP literal) falls in, or null for an ordinary public address. */
export function restrictedClass(address: string): string | null {
  const family = familyOf(address);
  return CLASS_LISTS.find(({ list }) => list.check(address, family))?.name ?? null;
}

/** What PLANGATE_DISPATCH_ALLOW admits: host names (as written in URLs) and networks. */
export interface DispatchAllowList {
  hosts: ReadonlySet<string>;
  networks: BlockList;
}

/** A PLANGATE_DISPATCH_ALLOW entry that is no host, address or network: the operator must fix it. */
export class AllowListInvalid extends Error {
  constructor(entry: string) {
    super(`${DISPATCH_ALLOW_VAR} has an entry that is neither a host name, an IP address nor a CIDR network: "${entry.slice(0, 100)}"`);
    this.name = 'AllowListInvalid';
  }
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

const normalHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');

/** Parses PLANGATE_DISPATCH_ALLOW: comma-separated host names, IP addresses and CIDR networks. */
export function parseDispatchAllow(text: string | undefined): DispatchAllowList {
  const hosts = new Set<string>();
  const networks = new BlockList();
  for (const raw of (text ?? '').split(',')) {
    const entry = normalHost(raw.trim());
    if (!entry) continue;
    const slash = entry.indexOf('/');
    if (slash >= 0) {
      const address = entry.slice(0, slash);
      const prefixText = entry.slice(slash + 1);
      const prefix = Number(prefixText);
      const max = isIP(address) === 4 ? 32 : 128;
      if (!isIP(address) || !/^\d{1,3}$/.test(prefixText) || prefix > max) throw new AllowListInvalid(raw.trim());
      networks.addSubnet(address, prefix, familyOf(address));
    } else if (isIP(entry)) {
      networks.addAddress(entry, familyOf(entry));
    } else if (HOST_NAME.test(entry)) {
      hosts.add(entry);
    } else {
      throw new AllowListInvalid(raw.trim());
    }
  }
  return { hosts, networks };
}

/** Refused before any byte is sent: the host resolved only to addresses Plangate may not call. */
export class AddressRefused extends Error {
  constructor(
    readonly host: string,
    readonly addressClass: string,
    literal: boolean,
  ) {
    super(
      `${literal ? `${host} is ${indefiniteArticle(addressClass)} ${addressClass} address` : `${host} resolves to ${indefiniteArticle(addressClass)} ${addressClass} address`}, which Plangate calls only when ${DISPATCH_ALLOW_VAR} lists the host or its network`,
    );
    this.name = 'AddressRefused';
  }
}

/** A 3xx answer: following it could lead anywhere, so no redirect is followed. */
export class RedirectRefused extends Error {
  constructor(readonly status: number) {
    super(`answered with a redirect (HTTP ${status}), and Plangate follows no redirects: give the endpoint's final URL`);
    this.name = 'RedirectRefused';
  }
}

/**
 * The addresses `host` (a name or an IP literal) may be reached at: those that are public or
 * that the allow-list admits (a name allowed as such admits all its addresses). Refused
 * when none is left.
 */
export async function permittedAddresses(host: string, allow: DispatchAllowList): Promise<string[]> {
  const name = normalHost(host);
  const literal = isIP(name) !== 0;
  const addresses = literal ? [name] : (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
  if (!literal && allow.hosts.has(name)) return addresses;
  const permitted = addresses.filter((address) => !restrictedClass(address) || allow.networks.check(address, familyOf(address)));
  if (!permitted.length) throw new AddressRefused(name, (addresses[0] && restrictedClass(addresses[0])) || 'unresolvable', literal);
  return permitted;
}

type LookupCallback = (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;

/**
 * The socket's own name lookup: it connects only to what this returns, so the addresses
 * checked are the addresses used (and Node's happy-eyeballs still tries each in turn).
 */
function guardedLookup(allow: DispatchAllowList) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    permittedAddresses(hostname, allow).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((address) => isIP(address) === options.family) : addresses;
        if (!wanted.length) return callback(new AddressRefused(hostname, `IPv${options.family}`, false), []);
        if (options.all) return callback(null, wanted.map((address) => ({ address, family: isIP(address) })));
        callback(null, wanted[0], isIP(wanted[0]));
      },
      (error: Error) => callback(error, []),
    );
  };
}

function guardedAgent(allow: DispatchAllowList): Agent {
  // `host` stays the name, so TLS checks the certificate for it; names resolve through the guard.
  const connectChecked = buildConnector({ lookup: guardedLookup(allow) } as buildConnector.BuildOptions);
  return new Agent({
    connect(options, callback) {
      // An IP literal is connected to without any lookup: it is checked here instead.
      if (isIP(normalHost(options.hostname))) {
        permittedAddresses(options.hostname, allow).then(
          () => connectChecked(options, callback),
          (error: Error) => callback(error, null),
        );
        return;
      }
      connectChecked(options, callback);
    },
  });
}

/** One pool per allow-list text: a changed PLANGATE_DISPATCH_ALLOW never reuses a socket the old one admitted. */
const agents = new Map<string, Agent>();

function agentFor(env: Record<string, string | undefined>): Agent {
  const text = env[DISPATCH_ALLOW_VAR] ?? '';
  let agent = agents.get(text);
  if (!agent) {
    agent = guardedAgent(parseDispatchAllow(text));
    for (const [key, old] of agents) {
      agents.delete(key);
      void old.close().catch(() => undefined);
    }
    agents.set(text, agent);
  }
  return agent;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for URLs someone other than the operator configured: every connection checked
 * against the address classes and PLANGATE_DISPATCH_ALLOW, redirects refused. Answers come
 * back as the platform's Response, which is what every SDK expects.
 */
export async function guardedFetch(input: string | URL | Request, init?: RequestInit, env: Record<string, string | undefined> = process.env): Promise<Response> {
  let url: string;
  let request: RequestInit = init ?? {};
  if (input instanceof Request) {
    url = input.url;
    request = { method: input.method, headers: input.headers, body: input.body, signal: input.signal, ...init };
    if (request.body) (request as { duplex?: string }).duplex = 'half';
  } else {
    url = String(input);
  }
  const answer = await undiciFetch(url, { ...(request as object), redirect: 'manual', dispatcher: agentFor(env) } as Parameters<typeof undiciFetch>[1]);
  if (answer.status >= 300 && answer.status < 400) {
    await answer.body?.cancel().catch(() => undefined);
    throw new RedirectRefused(answer.status);
  }
  const body = NULL_BODY_STATUSES.has(answer.status) ? null : (answer.body as ReadableStream<Uint8Array> | null);
  const response = new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers as unknown as HeadersInit });
  Object.defineProperty(response, 'url', { value: answer.url });
  return response;
}

/** The refusal (address, redirect or allow-list) somewhere in `error`'s causes, if any. */
export function guardRefusal(error: unknown): AddressRefused | RedirectRefused | AllowListInvalid | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof AddressRefused || current instanceof RedirectRefused || current instanceof AllowListInvalid) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
