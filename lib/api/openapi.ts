import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ROUTE_LIST, type RouteSpec } from './routes';
import { ErrorResponse } from './schemas';

// The OpenAPI 3.1 document, generated from the route table (lib/api/routes.ts) with the
// same zod schemas the handlers parse with, so the published contract cannot disagree with
// what the server accepts and answers.

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input: malformed JSON, wrong types or unknown fields; `details` lists each path',
  401: 'No valid session or API token (`Authorization: Bearer <token>`)',
  403: "The caller's role does not allow this, the request came from a foreign Origin, (four-eyes) the approver wrote or submitted a revision since the last approval, or a service account tried to decide",
  404: 'No such plan, revision or resource',
  409: 'A conflict: a stale base revision (`current_revision`), a stale review (`code: "stale"`), the wrong review state, or (hand-off) `code: "not_approved"` / `"stale"` / `"integrity"`',
  413: 'The body or plan is over the size limit',
  415: 'The body is not JSON',
  422: 'The plan cannot be expressed in the requested format, or has validation errors that block review (`details` lists them), or a change names a task its base revision does not hold',
  429: 'Too many requests of this kind from the caller; `retry_after_seconds` (and the `Retry-After` header) says when to try again',
  502: 'The planner (LLM or Behavior Controller) failed',
  503: 'The planner is not configured on this server',
};

/** The JSON the body of an error status carries for this route. */
export function errorSchemaOf(spec: RouteSpec, status: number): z.ZodType {
  return spec.errorSchema && status !== 401 && status !== 403 ? spec.errorSchema : ErrorResponse;
}

/** Every status a route documents, success and error. */
export function statusesOf(spec: RouteSpec): number[] {
  const errors = spec.role === null ? spec.errors : [...spec.errors, 401, 403];
  return [...new Set([...Object.keys(spec.responses).map(Number), ...errors])].sort((a, b) => a - b);
}

function responsesOf(spec: RouteSpec): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of statusesOf(spec)) {
    const reply = spec.responses[status];
    const key = String(status) as `${1 | 2 | 3 | 4 | 5}${string}`;
    if (reply) {
      responses[key] = reply.schema ? { description: reply.description, content: { [reply.contentType ?? 'application/json']: { schema: reply.schema } } } : { description: reply.description };
    } else {
      responses[key] = { description: ERROR_DESCRIPTIONS[status] ?? 'Error', content: { 'application/json': { schema: errorSchemaOf(spec, status) } } };
    }
  }
  return responses;
}

function operationOf(spec: RouteSpec): ZodOpenApiOperationObject {
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.role === null ? { security: [] } : { description: `Least role: ${spec.role}.` }),
    ...(spec.params || spec.query ? { requestParams: { ...(spec.params ? { path: spec.params } : {}), ...(spec.query ? { query: spec.query } : {}) } } : {}),
    ...(spec.body ? { requestBody: { required: !spec.bodyOptional, content: { 'application/json': { schema: spec.body } } } } : {}),
    responses: responsesOf(spec),
  };
}

/**
 * Whether a default is made at parse time (a fresh id, the clock): the schema must not
 * advertise one value of it, or a client filling defaults from the document gives every
 * task the same id. zod evaluates a function default on each read, so two reads differ,
 * and a timestamp default is the clock even when two reads fall in the same millisecond.
 */
function generatedDefault(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def;
  if (def.type !== 'default' && def.type !== 'prefault') return false;
  const first = JSON.stringify((def as unknown as { defaultValue: unknown }).defaultValue);
  const second = JSON.stringify((def as unknown as { defaultValue: unknown }).defaultValue);
  return first !== second || /^"\d{4}-\d{2}-\d{2}T/.test(first);
}

let cached: ReturnType<typeof createDocument> | undefined;

function pathsOf(routes: readonly RouteSpec[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const spec of routes) paths[spec.path] = { ...paths[spec.path], [spec.method]: operationOf(spec) };
  return paths;
}

/** The document, built once per process: the table does not change while it runs. */
export function openApiDocument() {
  cached ??= createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Plangate API',
        version: '0.1.0',
        description:
          'Plans are seed 000 TaskData documents. Saving needs the base revision; a stale base is a 409 conflict, never an overwrite. Every error is `{ error: { code, message, details? } }` (the Behavior Controller endpoints answer `{ success: false, error }`, as seed 000 does); an unknown path under /api is 404 `not_found`, a known path with another method 405 with an `Allow` header.',
      },
      components: {
        schemas: { ErrorResponse },
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API token from POST /api/tokens, the CLI, or PLANGATE_ADMIN_TOKEN' },
          session: { type: 'apiKey', in: 'cookie', name: '__Secure-better-auth.session_token', description: 'The browser session after sign-in' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
      paths: pathsOf(ROUTE_LIST),
    },
    {
      override: ({ zodSchema, jsonSchema }) => {
        if (generatedDefault(zodSchema)) delete jsonSchema.default;
      },
    },
  );
  return cached;
}
