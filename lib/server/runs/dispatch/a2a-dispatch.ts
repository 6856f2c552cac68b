import 'server-only';
import { setTimeout as sleep } from 'node:timers/promises';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import type { z } from 'zod';
import { resourceKey } from '@/lib/registry';
import type { A2aEndpoint } from '@/lib/registry/endpoint';
import { guardCall, jsonOrText } from './call-guard';
import { dispatchSecret } from './dispatch-secrets';
import { DispatchError, type DispatchOutcome, type DispatchRequest } from './dispatch-types';

// An agent behind A2A: the client is built from the agent's card, the task goes out as one
// `message/send` (instructions as a text part, the input as a data part, the idempotency key
// in the metadata and as the message id), and the A2A task is followed to a final state.
// The send returns at once and the task is polled, so a long agent task never rides on one
// HTTP request that an idle timeout could cut.

/** Polling starts quick (most agents finish fast) and slows down to this. */
const MAX_POLL_INTERVAL_MS = 2_000;
const FIRST_POLL_INTERVAL_MS = 10;

function textPart(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

function isTask(result: Message | Task): result is Task {
  return 'status' in result && 'id' in result;
}

/** What parts say: the data of their data parts (one alone, several as a list), else their text. */
function outputOf(parts: Part[]): unknown {
  const data = parts.flatMap((candidate) => (candidate.content?.$case === 'data' ? [candidate.content.value] : []));
  if (data.length) return data.length === 1 ? data[0] : data;
  const text = parts.flatMap((candidate) => (candidate.content?.$case === 'text' ? [candidate.content.value] : [])).join('\n');
  return text ? jsonOrText(text) : null;
}

function statusText(task: Task): string {
  const parts = task.status?.message?.parts ?? [];
  const text = parts.flatMap((candidate) => (candidate.content?.$case === 'text' ? [candidate.content.value] : [])).join(' ');
  return text || '(no message)';
}

/** The outcome of a task in a final (or interrupted) state; null while it is still under way. */
function settled(task: Task, agent: string): DispatchOutcome | null {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
    case TaskState.TASK_STATE_WORKING:
    case TaskState.TASK_STATE_UNSPECIFIED:
      return null;
    case TaskState.TASK_STATE_COMPLETED: {
      const artifactParts = task.artifacts.flatMap((artifact) => artifact.parts);
      return { state: 'succeeded', output: outputOf(artifactParts.length ? artifactParts : (task.status?.message?.parts ?? [])) };
    }
    case TaskState.TASK_STATE_FAILED:
      throw new DispatchError(`Agent ${agent} failed the task: ${statusText(task)}`);
    case TaskState.TASK_STATE_CANCELED:
      throw new DispatchError(`Agent ${agent} cancelled the task: ${statusText(task)}`);
    case TaskState.TASK_STATE_REJECTED:
      throw new DispatchError(`Agent ${agent} rejected the task: ${statusText(task)}`, false);
    case TaskState.TASK_STATE_INPUT_REQUIRED:
      throw new DispatchError(`Agent ${agent} needs input to go on, which a run cannot give: ${statusText(task)}`, false);
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      throw new DispatchError(`Agent ${agent} needs authentication to go on: ${statusText(task)}`, false);
    default:
      throw new DispatchError(`Agent ${agent} answered a task in an unknown state (${state})`);
  }
}

export async function dispatchA2a(request: DispatchRequest, endpoint: z.infer<typeof A2aEndpoint>): Promise<DispatchOutcome> {
  const resourceName = request.resource ? resourceKey(request.resource) : request.taskId;
  const headers: Record<string, string> = { 'Idempotency-Key': request.idempotencyKey };
  if (endpoint.token_env) headers.Authorization = `Bearer ${dispatchSecret(endpoint.token_env, 'token_env', resourceName)}`;
  const call = guardCall(request, { url: endpoint.url, protocol: 'A2A', headers });
  const fetchImpl = call.fetch;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );

  const instructions = request.task.instructions || request.task.description || '';
  const message: Message = {
    messageId: request.idempotencyKey,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [...(instructions ? [textPart(instructions)] : []), dataPart(request.input ?? null)],
    metadata: { idempotency_key: request.idempotencyKey, run_id: request.runId, task_id: request.taskId, attempt: request.attempt },
    extensions: [],
    referenceTaskIds: [],
  };

  try {
    const client = await factory.createFromUrl(endpoint.url);
    const options = { signal: call.signal };
    const result = await client.sendMessage(
      {
        tenant: '',
        message,
        configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true },
        metadata: undefined,
      },
      options,
    );
    if (!isTask(result)) return { state: 'succeeded', output: outputOf(result.parts) };

    let task = result;
    for (let interval = FIRST_POLL_INTERVAL_MS; ; interval = Math.min(interval * 2, MAX_POLL_INTERVAL_MS)) {
      const outcome = settled(task, call.endpoint);
      if (outcome) return outcome;
      await sleep(interval, undefined, options);
      task = await client.getTask({ tenant: '', id: task.id, historyLength: 0 }, options);
    }
  } catch (error) {
    throw call.failure(error);
  }
}
