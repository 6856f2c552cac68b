// A small client typed only by the types openapi-typescript generates from the published
// OpenAPI document (./api.d.ts, written next to this file by scripts/api-client-check.mjs).
// It calls every operation and reads a field of each answer, so `tsc` fails when an
// operation is missing, a request shape changes, or an answer is untyped.
import type { paths } from './api';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type ParamsOf<O> = O extends { parameters: { path: infer P } } ? ([P] extends [undefined] ? object : { params: P }) : object;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [never] ? object : { query?: Q }) : object;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : object;
type Input<O> = ParamsOf<O> & QueryOf<O> & BodyOf<O>;
type Reply<R> = R extends { content: infer C } ? C[keyof C] : null;
type Success<O> = O extends { responses: infer R } ? { [S in keyof R & (200 | 201 | 204)]: Reply<R[S]> }[keyof R & (200 | 201 | 204)] : never;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

export function client(baseUrl: string, token: string) {
  return async function call<P extends keyof paths, M extends Method>(method: M, path: P, input: Input<Operation<P, M>>): Promise<Success<Operation<P, M>>> {
    const { params, query, body } = input as { params?: Record<string, string | number>; query?: Record<string, string | number>; body?: unknown };
    const url = new URL(String(path).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name]))), baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const response = await fetch(url, {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const answer = response.status === 204 ? null : isJson ? await response.json() : await response.text();
    if (!response.ok) throw new ApiError(response.status, answer);
    return answer as Success<Operation<P, M>>;
  };
}

/** Every operation once, each answer read as a client would. */
export async function everyOperation(call: ReturnType<typeof client>): Promise<string[]> {
  const seen: string[] = [];
  const note = (value: string | number | boolean | null | undefined) => seen.push(String(value));
  const plan = { planned_tasks: [{ task_id: 'a', description: 'A', execution_type: 'llm' }] };

  note((await call('get', '/api/health', {})).database);
  note((await call('get', '/api/openapi.json', {})).openapi as string);
  note((await call('get', '/api/plans', {})).plans[0]?.title);
  const { id } = await call('post', '/api/plans', { body: { title: 'Typed', plan } });
  const head = await call('get', '/api/plans/{id}', { params: { id } });
  note(head.plan.planned_tasks[0].task_id.toUpperCase());
  note(head.plan.planned_tasks[0].dependencies.length);
  note((await call('put', '/api/plans/{id}', { params: { id }, body: { base_revision: head.revision, plan: head.plan } })).layout_only);
  note((await call('patch', '/api/plans/{id}', { params: { id }, body: { base_revision: head.revision + 1, positions: { a: { x: 10, y: 20 } } } })).content_hash);
  note((await call('get', '/api/plans/{id}/revisions', { params: { id } })).revisions[0].content_hash);
  note((await call('get', '/api/plans/{id}/revisions/{rev}', { params: { id, rev: '1' } })).plan.planned_tasks.length);
  note((await call('post', '/api/plans/{id}/presence', { params: { id }, body: { session_id: 'tab-123456', revision: 1, dirty: false } })).head.revision);
  note(await call('delete', '/api/plans/{id}/presence', { params: { id }, body: { session_id: 'tab-123456' } }));
  note((await call('post', '/api/plans/{id}/validate', { params: { id } })).valid);
  note((await call('post', '/api/validate', { body: { plan } })).issues.length);
  note((await call('post', '/api/plans/import', { body: { content: JSON.stringify(plan) } })).format);
  note((await call('get', '/api/plans/{id}/export', { params: { id }, query: { format: 'planner-agent', revision: 1 } })).length);
  note((await call('post', '/api/plans/{id}/submit', { params: { id }, body: { reviewers: [] } })).status);
  const decision = { revision: 1, content_hash: head.content_hash, comment: 'ok' };
  note((await call('post', '/api/plans/{id}/approve', { params: { id }, body: decision })).review.decision);
  note((await call('post', '/api/plans/{id}/request-changes', { params: { id }, body: decision })).status);
  note((await call('post', '/api/plans/{id}/reject', { params: { id }, body: decision })).status);
  note((await call('get', '/api/plans/{id}/approved', { params: { id } })).content_hash);
  const started = await call('post', '/api/plans/{id}/runs', { params: { id }, body: { revision: 1, content_hash: head.content_hash } });
  note((await call('get', '/api/plans/{id}/runs', { params: { id }, query: { limit: 10 } })).runs[0]?.state);
  const run_id = started.run_id;
  const run = await call('get', '/api/runs/{run_id}', { params: { run_id } });
  note(run.tasks[0]?.state);
  note(run.counts.succeeded);
  note((await call('get', '/api/runs/{run_id}/events', { params: { run_id }, query: { after: 0 } })).length);
  note((await call('post', '/api/runs/{run_id}/pause', { params: { run_id } })).state);
  note((await call('post', '/api/runs/{run_id}/resume', { params: { run_id } })).state);
  note((await call('post', '/api/runs/{run_id}/tasks/{task_id}/retry', { params: { run_id, task_id: 'a' } })).state);
  note((await call('post', '/api/runs/{run_id}/gates/{task_id}/approve', { params: { run_id, task_id: 'a' }, body: { comment: 'go' } })).state);
  note((await call('post', '/api/runs/{run_id}/gates/{task_id}/reject', { params: { run_id, task_id: 'a' } })).state);
  note((await call('post', '/api/runs/{run_id}/tasks/{task_id}/result', { params: { run_id, task_id: 'a' }, body: { state: 'failed', error: 'no' } })).state);
  note((await call('post', '/api/runs/{run_id}/cancel', { params: { run_id } })).state);
  note((await call('get', '/api/plans/{id}/reviews', { params: { id } })).status);
  note((await call('get', '/api/plans/{id}/audit', { params: { id } })).events[0]?.kind);
  note((await call('get', '/api/plans/{id}/comments', { params: { id }, query: { revision: 1 } })).threads.length);
  const created = await call('post', '/api/plans/{id}/comments', { params: { id }, body: { task_id: 'a', revision: 1, body: 'Why?' } });
  note((await call('post', '/api/plans/{id}/comments/{commentId}/resolve', { params: { id, commentId: created.comment.id } })).resolved_at);
  note((await call('post', '/api/plans/{id}/comments/{commentId}/reopen', { params: { id, commentId: created.comment.id } })).resolved_at);
  note((await call('get', '/api/reviews', {})).plans[0]?.submitted_by);
  note((await call('get', '/api/inbox', { query: { limit: 10 } })).next_cursor);
  note((await call('post', '/api/inbox/read', { body: { all: true } })).unread);
  note((await call('get', '/api/me', {})).role);
  note((await call('get', '/api/users', {})).users[0]?.username);
  note((await call('post', '/api/users', { body: { username: 'bot-1', role: 'editor', service: true } })).service);
  note((await call('patch', '/api/users/{username}', { params: { username: 'bot-1' }, body: { role: 'viewer' } })).role);
  const token = await call('post', '/api/tokens', { body: { expires_in_days: 1 } });
  note((await call('delete', '/api/tokens/{tokenId}', { params: { tokenId: token.id } })).revoked_at);
  const keys = (await call('get', '/api/keys', {})).keys;
  note(keys[0]?.jwk.kty ?? keys[0]?.revoked_at);
  note((await call('get', '/api/webhooks', {})).webhooks.length);
  const hook = await call('post', '/api/webhooks', { body: { url: 'https://hooks.example/plangate', events: ['plan.approved'] } });
  note((await call('get', '/api/webhooks/{id}/deliveries', { params: { id: hook.id } })).deliveries.length);
  note(await call('delete', '/api/webhooks/{id}', { params: { id: hook.id } }));
  const generated = await call('post', '/api/plans/generate', { body: { task_description: 'Ship it', backend: 'rule-based' } });
  note(typeof generated === 'string' ? generated : generated.planned_by.label);
  note((await call('post', '/api/plans/{id}/stage2', { params: { id }, body: { task_ids: ['a'] } })).results[0]?.uid);
  const phase = { task_input_data: 'Ship it' };
  note((await call('post', '/api/behavior-controller/process-phase-1-task', { body: { search_id: 's', phase_1_data: phase } })).data[0]?.task_id);
  note((await call('post', '/api/behavior-controller/process-phase-2-task', { body: { search_id: 's', phase_2_data: phase } })).data.uid);
  note((await call('post', '/api/plans/{id}/simulate', { params: { id }, body: { workers: 2 } })).result.makespan_ms);
  note((await call('get', '/api/plans/{id}/simulate', { params: { id } })).previous?.revision);
  note((await call('post', '/api/plans/{id}/optimize', { params: { id }, body: { strategy: 'rule' } })).subgraphs.length);
  const proposal = await call('post', '/api/plans/{id}/replan', { params: { id }, body: { task_ids: ['a'] } });
  note(proposal.replacements[0]?.tasks[0]?.task_id);
  note((await call('get', '/api/plans/{id}/replan/{proposalId}', { params: { id, proposalId: proposal.proposal_id } })).applied_revision);
  note((await call('post', '/api/plans/{id}/replan/{proposalId}/apply', { params: { id, proposalId: proposal.proposal_id }, body: { accepted_task_ids: ['a'] } })).plan.revision);
  const registry = await call('get', '/api/registry', {});
  note(registry.tools.length);
  note((await call('put', '/api/registry', { body: registry })).agents.length);
  note(Object.keys(await call('put', '/api/registry/{kind}/{key}', { params: { kind: 'tools', key: 'shipments_list' }, body: { id: 'shipments_list' } })).length);
  note(await call('delete', '/api/registry/{kind}/{key}', { params: { kind: 'tools', key: 'shipments_list' } }));
  note((await call('post', '/api/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).length);
  return seen;
}
