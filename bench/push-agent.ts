/**
 * The agent of `bench/push.ts`, in a process of its own (forked: its memory and sockets are not the
 * client's): a real `@a2a-js/sdk` 1.3 server on 127.0.0.1 whose card offers streaming and push
 * notifications, so the SDK's `DefaultRequestHandler` stores each message's push config and its own
 * `DefaultPushNotificationSender` POSTs every event. Each task is parked in `working` until the parent
 * says `finish` (all at once, or so many per second); then it publishes one short artifact and `completed`.
 *
 * It times two moments per thread (contextId), on the wall clock both processes share
 * (`performance.timeOrigin + performance.now()`): `published`, when the executor publishes the
 * completion, and `posted`, when the SDK's sender serialises the completion's push, right before its
 * `fetch` (the serializer is the sender's own, wrapped; it runs inside `_dispatchNotification`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskState, type AgentCard } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  V1PushNotificationSerializer,
  type AgentExecutor,
  type PushNotificationSerializer,
} from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import express from 'express';
import type { AgentReport, ToAgent } from './push-ipc.js';

const now = (): number => performance.timeOrigin + performance.now();
console.info = () => {}; // the SDK's sender logs every push it sends
// …and every push it gave up on, with its stack (tens of thousands in a burst): counted instead.
let pushFailures = 0;
console.error = () => void pushFailures++;

const parked = new Map<string, () => void>();
const published = new Map<string, number>();
const posted = new Map<string, number>();
const status = (state: TaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });

const executor: AgentExecutor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const task = { id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined };
    bus.publish(AgentEvent.task({ ...task, status: status(TaskState.TASK_STATE_WORKING) }));
    await new Promise<void>((resolve) => parked.set(taskId, resolve));
    published.set(contextId, now());
    const part = {
      content: { $case: 'text' as const, value: `done ${taskId.slice(0, 8)}` },
      metadata: undefined,
      filename: '',
      mediaType: '',
    };
    const artifact = { artifactId: 'answer', name: '', description: '', parts: [part], metadata: undefined, extensions: [] };
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined }));
    bus.finished();
  },
  async cancelTask() {},
};

/** The SDK's own v1.0 serializer, timing the completion's push as the sender is about to POST it. */
const v1 = new V1PushNotificationSerializer();
const timed: PushNotificationSerializer = {
  serialize(response, task) {
    const payload = response.payload;
    if (payload?.$case === 'statusUpdate' && payload.value.status?.state === TaskState.TASK_STATE_COMPLETED) {
      posted.set(payload.value.contextId, now());
    }
    return v1.serialize(response, task);
  },
};

const app = express();
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const card = {
  name: 'push bench',
  description: 'Parks each task in working until told to finish; its pushes by the SDK sender.',
  supportedInterfaces: [{ url: `http://127.0.0.1:${port}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
  signatures: [],
} as unknown as AgentCard;
const store = new InMemoryPushNotificationStore();
const sender = new DefaultPushNotificationSender(store, { serializers: { '1.0': timed } });
const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, store, sender);
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
app.use('/', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

const connections = (): Promise<number> => new Promise((resolve) => server.getConnections((_, count) => resolve(count)));
const tell = (report: AgentReport): void => void process.send!(report);

process.on('message', (message: ToAgent) => {
  void (async () => {
    if (message.type === 'census') {
      const cpu = process.cpuUsage();
      return tell({
        type: 'census',
        parked: parked.size,
        connections: await connections(),
        cpuMs: (cpu.user + cpu.system) / 1000,
        pushFailures,
      });
    }
    if (message.type === 'finish') {
      const finishing = [...parked.values()];
      parked.clear();
      tell({ type: 'finishing', count: finishing.length });
      // All at once, or `perSecond` of them, a batch every 10 ms.
      const batch = message.perSecond > 0 ? Math.max(1, Math.round(message.perSecond / 100)) : finishing.length;
      for (let i = 0; i < finishing.length; i += batch) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        for (const finish of finishing.slice(i, i + batch)) finish();
      }
      return;
    }
    if (message.type === 'times') {
      return tell({ type: 'times', published: Object.fromEntries(published), posted: Object.fromEntries(posted) });
    }
    if (message.type === 'stop') (server.close(() => process.exit(0)), server.closeAllConnections());
  })();
});
tell({ type: 'ready', port });
