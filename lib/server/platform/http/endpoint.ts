import 'server-only';
import type { z } from 'zod';
import { ROUTE_LIST, type Method, type RouteSpec } from '@/lib/api/routes';
import { checkOrigin } from '../../auth/origin';
import { requireRole, type Principal } from '../../auth/principal';
import { AppError } from '../errors';
import { parseBody, readJsonText, readJsonValue, readOptionalJsonValue } from './read-json';
import { singleQueryFields } from './read-query';
import { json, route } from './route';

// Route handlers built from the route table (lib/api/routes.ts): the table says who may
// call an endpoint and what it takes, and this layer enforces both and parses the input
// once, so a handler receives typed input and services never see `unknown`.

type Context = { params: Promise<Record<string, string | string[]>> };
type Handler = (request: Request, context: Context) => Promise<Response>;

type Parsed<S, K extends string> = S extends { [key in K]: infer T extends z.ZodType } ? z.infer<T> : undefined;
/** Path parameters arrive as text; the handler decides what a malformed one means (often 404). */
type ParamsOf<S> = S extends { params: z.ZodObject<infer Shape> } ? { [K in keyof Shape]: string } : Record<string, never>;

export interface EndpointInput<S extends RouteSpec> {
  body: Parsed<S, 'body'>;
  /** The body as sent, before the schema filled defaults: for handlers that need what was omitted. */
  rawBody: unknown;
  /** The body's text, unparsed, for a route whose body a compute worker parses (RouteSpec.bodyInWorker). */
  bodyText: S['bodyInWorker'] extends true ? string : undefined;
  query: Parsed<S, 'query'>;
  params: ParamsOf<S>;
  principal: S['role'] extends null ? null : Principal;
  request: Request;
}

export function endpoint<S extends RouteSpec>(spec: S, handle: (input: EndpointInput<S>) => Promise<Response>): Handler {
  return route(async (request: Request, context: Context) => {
    let principal: Principal | null = null;
    if (spec.role !== null) {
      // In the handler, not a proxy, so no path around one can skip it; state-changing
      // methods are also refused when a browser sends them from another origin.
      checkOrigin(request.method, request.headers);
      principal = await requireRole(request.headers, spec.role);
    }
    const what = spec.bodyName ?? 'request body';
    const bodyText = spec.bodyInWorker ? await readJsonText(request, what) : undefined;
    const parsesBody = spec.body && !spec.signedBody && !spec.bodyInWorker;
    const rawBody = parsesBody ? await (spec.bodyOptional ? readOptionalJsonValue(request, what) : readJsonValue(request, what)) : undefined;
    const body = parsesBody ? parseBody(spec.body!, rawBody, what) : undefined;
    const query = spec.query ? parseBody(spec.query, singleQueryFields(new URL(request.url).searchParams), 'query string') : undefined;
    const params = (await context?.params) ?? {};
    return handle({ body, rawBody, bodyText, query, params, principal, request } as EndpointInput<S>);
  });
}

const ALL_METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** The methods the table declares for a path, as an Allow header lists them. */
export function allowedMethods(path: string): string[] {
  const declared = ROUTE_LIST.filter((spec) => spec.path === path).map((spec) => spec.method);
  const allowed = ALL_METHODS.filter((method) => declared.includes(method)).map((method) => method.toUpperCase());
  return allowed.includes('GET') ? [...allowed, 'HEAD', 'OPTIONS'] : [...allowed, 'OPTIONS'];
}

/**
 * Handlers for the methods a path does not have. Next answers those with an empty 405 and
 * no Allow header; a route file exports these instead, so a client gets the API's JSON
 * error and the methods it may use.
 */
export function notAllowed(path: string): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler> {
  const allow = allowedMethods(path).join(', ');
  const handler: Handler = async (request) =>
    json(new AppError('method_not_allowed', 405, `${request.method} is not allowed on ${path}; use ${allow}`).toJSON(), 405, { Allow: allow });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

/** Every method of a path under /api that no route serves: the API's JSON 404, never the HTML page. */
export function unknownPath(): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS', Handler> {
  const handler: Handler = async (request) =>
    json(new AppError('not_found', 404, `No API endpoint at ${new URL(request.url).pathname.slice(0, 200)}; see /api/openapi.json`).toJSON(), 404);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, HEAD: handler, OPTIONS: handler };
}
