/**
 * Test support: a real A2A agent (the @a2a-js/sdk server: DefaultRequestHandler over Express,
 * JSON-RPC, agent card at /.well-known/agent-card.json) on 127.0.0.1. Its executor answers a
 * data artifact derived from the message's data part, or fails, rejects or asks for input,
 * as its behaviour says; it records every message with its idempotency key.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

export interface AgentMessage {
  idempotencyKey: string | undefined;
  /** The message's data part. */
  input: unknown;
  /** The message's text part (the task's instructions). */
  instructions: string;
}

export interface A2aAgentBehaviour {
  /**
   * 'complete': a data artifact `{ echo: input, instructions }`; 'fail' and 'reject': that
   * final state with a text message; 'input-required': stops asking for more input.
   */
  mode: 'complete' | 'fail' | 'reject' | 'input-required';
  /** Work this long (in the working state) before the final state. */
  delayMs: number;
  /** Make the artifact's data a string this many characters long. */
  bigBytes?: number;
}

export interface A2aTestAgent {
  /** The agent's base URL (its card is at /.well-known/agent-card.json under it). */
  url: string;
  behaviour: A2aAgentBehaviour;
  messages: AgentMessage[];
  /** Messages that carried `idempotencyKey`. */
  countFor(idempotencyKey: string): number;
  close(): Promise<void>;
}

function part(content: Part['content'], mediaType: string): Part {
  return { content, metadata: undefined, filename: '', mediaType };
}

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [part({ $case: 'text', value: text }, 'text/plain')],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

class TestExecutor implements AgentExecutor {
  constructor(
    private readonly behaviour: A2aAgentBehaviour,
    private readonly messages: AgentMessage[],
  ) {}

  cancelTask = async (taskId: string, eventBus: ExecutionEventBus): Promise<void> => {
    eventBus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }));
  };

  async execute(context: RequestContext, eventBus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context;
    const data = userMessage.parts.find((candidate) => candidate.content?.$case === 'data')?.content;
    const text = userMessage.parts.find((candidate) => candidate.content?.$case === 'text')?.content;
    const key = userMessage.metadata?.idempotency_key;
    const received: AgentMessage = {
      idempotencyKey: typeof key === 'string' ? key : undefined,
      input: data?.$case === 'data' ? data.value : undefined,
      instructions: text?.$case === 'text' ? text.value : '',
    };
    this.messages.push(received);

    const status = (state: TaskState, message?: Message) =>
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined });
    eventBus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      }),
    );
    eventBus.publish(status(TaskState.TASK_STATE_WORKING));
    if (this.behaviour.delayMs) await sleep(this.behaviour.delayMs);

    switch (this.behaviour.mode) {
      case 'fail':
        eventBus.publish(status(TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, 'the agent failed on purpose')));
        break;
      case 'reject':
        eventBus.publish(status(TaskState.TASK_STATE_REJECTED, agentMessage(taskId, contextId, 'the agent will not do this')));
        break;
      case 'input-required':
        eventBus.publish(status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, 'which city?')));
        break;
      case 'complete': {
        const value = this.behaviour.bigBytes ? 'x'.repeat(this.behaviour.bigBytes) : { echo: received.input, instructions: received.instructions };
        eventBus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId: crypto.randomUUID(), name: 'result', description: '', parts: [part({ $case: 'data', value }, 'application/json')], metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        eventBus.publish(status(TaskState.TASK_STATE_COMPLETED));
        break;
      }
    }
  }
}

export async function startA2aTestAgent(behaviour: Partial<A2aAgentBehaviour> = {}): Promise<A2aTestAgent> {
  const current: A2aAgentBehaviour = { mode: 'complete', delayMs: 0, ...behaviour };
  const messages: AgentMessage[] = [];
  const card: AgentCard = {
    name: 'Plangate test agent',
    description: 'Answers a data artifact derived from its input.',
    // The URL is filled in once the port is known (the handler keeps this object).
    supportedInterfaces: [{ url: '', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes its input', tags: ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TestExecutor(current, messages));
  const app = express();
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  card.supportedInterfaces[0].url = url;

  return {
    url,
    behaviour: current,
    messages,
    countFor: (idempotencyKey) => messages.filter((message) => message.idempotencyKey === idempotencyKey).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
