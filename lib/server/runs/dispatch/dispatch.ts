import 'server-only';
import type { ExecutionType } from '@/lib/plan';
import { ENDPOINT_PROTOCOLS, resourceKey, type Resource } from '@/lib/registry';
import { dispatchA2a } from './a2a-dispatch';
import { DispatchError, type Dispatcher } from './dispatch-types';
import { dispatchMcp } from './mcp-dispatch';
import { dispatchOpenAi } from './openai-dispatch';
import { dispatchWebhook } from './webhook-dispatch';

// Which protocol client runs a task: the one its resource's endpoint names. An LLM task
// without an endpoint runs on the configured LLM, so a plan of LLM tasks needs nothing but
// LLM_BASE_URL and LLM_MODEL; any other task without an endpoint cannot run.

/** The registry kind whose endpoints a task of each execution type may use. */
const REGISTRY_KIND = { agent: 'agents', tool: 'tools', llm: 'llms', dsl: 'dsl_workflows' } as const satisfies Record<ExecutionType, keyof typeof ENDPOINT_PROTOCOLS>;

function refuse(message: string): Dispatcher {
  return async () => {
    throw new DispatchError(message, false);
  };
}

export function dispatcherFor(kind: ExecutionType, resource: Resource | null): Dispatcher {
  const endpoint = resource?.endpoint;
  if (!endpoint) {
    if (kind === 'llm') return (request) => dispatchOpenAi(request, { protocol: 'openai' });
    return refuse(resource ? `Resource ${resourceKey(resource)} has no endpoint: give it one in the registry to run ${kind} tasks on it` : `The ${kind} task names no resource to run on`);
  }
  const allowed: readonly string[] = ENDPOINT_PROTOCOLS[REGISTRY_KIND[kind]];
  if (!allowed.includes(endpoint.protocol)) {
    return refuse(`Resource ${resourceKey(resource!)} has a ${endpoint.protocol} endpoint, but ${kind} tasks run through ${allowed.join(' or ')}`);
  }
  switch (endpoint.protocol) {
    case 'mcp':
      return (request) => dispatchMcp(request, endpoint);
    case 'a2a':
      return (request) => dispatchA2a(request, endpoint);
    case 'webhook':
      return (request) => dispatchWebhook(request, endpoint);
    case 'openai':
      return (request) => dispatchOpenAi(request, endpoint);
  }
}

/** Runs one task call through the protocol its resource names (`request.kind` already normalised, e.g. from l2_task's sub_type). */
export const dispatch: Dispatcher = (request) => dispatcherFor(request.kind, request.resource)(request);
