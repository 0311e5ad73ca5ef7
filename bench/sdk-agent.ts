/**
 * A real `@a2a-js/sdk` 1.3 server (express, `DefaultRequestHandler`, `InMemoryTaskStore`) whose
 * executor publishes the benchmark's task: the reference the replay agent is diffed against. It
 * holds every stream until its backlog is processed and is quadratic in appended chunks (see the
 * perf baseline), so it is only used with a handful of chunks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskState, type AgentCard } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import express from 'express';
import { agentCard, chunkText } from './frames.js';

export interface SdkAgent {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

const status = (state: TaskState) => ({ state, message: undefined, timestamp: undefined });

/** The executor: message text N → SUBMITTED, WORKING, N chunks (append from the 2nd, lastChunk on the Nth), COMPLETED. */
const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const first = ctx.userMessage.parts[0]?.content;
    const n = Number.parseInt(first?.$case === 'text' ? first.value : '1', 10);
    const { taskId, contextId } = ctx;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [ctx.userMessage],
        metadata: undefined,
      }),
    );
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }));
    for (let i = 0; i < n; i++) {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: 'out',
            name: '',
            description: '',
            parts: [{ content: { $case: 'text', value: chunkText(i) }, metadata: undefined, filename: '', mediaType: '' }],
            metadata: undefined,
            extensions: [],
          },
          append: i > 0,
          lastChunk: i === n - 1,
          metadata: undefined,
        }),
      );
    }
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined }));
    bus.finished();
  },
  async cancelTask() {},
};

/** Starts the SDK server on 127.0.0.1 and a free port, with the replay agent's card. */
export async function startSdkAgent(): Promise<SdkAgent> {
  const app = express();
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = agentCard(`${url}/`) as unknown as AgentCard;
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
