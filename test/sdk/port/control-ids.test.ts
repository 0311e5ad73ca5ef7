/**
 * An agent's ids never become control: an id (a task's, a context's, a message's, an artifact's, or
 * one an update names) holding a control character is a `protocol` error at the reader, on every
 * binding — the client's JSON-RPC reader, the SDK's (`reader: 'sdk'`), HTTP+JSON and gRPC — on each
 * of the readers' paths (the task snapshot, the fast and parse-less paths of a text chunk and a bare
 * status). The agent is a real `@a2a-js/sdk` 1.3 server on 127.0.0.1 whose handler yields what it is
 * told: the SDK's server writes any id, JSON-escaped or as protobuf, as it is.
 */
import { Role, TaskState, type SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService, UserBuilder as GrpcUserBuilder } from '@a2a-js/sdk/server/grpc';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcInterface, v1Card, v1Interfaces } from '../../../fixtures/cards.js';
import { bindGrpc } from '../../../fixtures/grpc-host.js';
import { PATHS, startHost, type Host } from '../../../fixtures/http-host.js';
import { quietSdkPreStreamErrors } from '../../../fixtures/quiet-sdk.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { grpcSupport } from '../../../src/node/grpc.js';
import type { AgentEvent } from '../../../src/port/types.js';
import { createSdkPorts, type SdkPortOptions, type SdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';

/** A task id that, written unescaped into an SSE stream, would end the event, forge an `end` and set a day-long retry. */
const HOSTILE = 't\r\nevent: end\r\ndata: {}\r\n\r\nretry: 86400000\n';

/** Where the hostile id goes: each shape takes one of the readers' paths. */
type Shape = 'task id' | 'chunk task id' | 'status context id' | 'artifact id' | 'message id' | 'C1 task id' | 'NUL task id';

const CLEAN = { taskId: 'T', contextId: 'C' };

const completed = (): StreamResponse => ({
  payload: {
    $case: 'statusUpdate',
    value: { ...CLEAN, status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: undefined, message: undefined }, metadata: undefined },
  },
});

const task = (id: string): Task => ({
  id,
  contextId: 'C',
  status: { state: TaskState.TASK_STATE_WORKING, timestamp: undefined, message: undefined },
  artifacts: [],
  history: [],
  metadata: undefined,
});

const chunk = (taskId: string, artifactId: string): StreamResponse => ({
  payload: {
    $case: 'artifactUpdate',
    value: {
      taskId,
      contextId: 'C',
      artifact: {
        artifactId,
        name: '',
        description: '',
        parts: [{ content: { $case: 'text', value: 'hi' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
      },
      append: false,
      lastChunk: false,
      metadata: undefined,
    },
  },
});

/** The stream the agent answers with, its hostile id in the place `shape` names. */
function streamOf(shape: Shape): StreamResponse[] {
  switch (shape) {
    case 'task id':
      return [{ payload: { $case: 'task', value: task(HOSTILE) } }, completed()];
    case 'C1 task id':
      return [{ payload: { $case: 'task', value: task('t\u009b2J') } }, completed()];
    case 'NUL task id':
      return [{ payload: { $case: 'task', value: task('t\u0000') } }, completed()];
    case 'chunk task id':
      return [chunk(HOSTILE, 'A'), completed()];
    case 'artifact id':
      return [{ payload: { $case: 'task', value: task('T') } }, chunk('T', HOSTILE), completed()];
    case 'status context id':
      return [
        {
          payload: {
            $case: 'statusUpdate',
            value: {
              taskId: 'T',
              contextId: HOSTILE,
              status: { state: TaskState.TASK_STATE_WORKING, timestamp: undefined, message: undefined },
              metadata: undefined,
            },
          },
        },
        completed(),
      ];
    case 'message id':
      return [
        {
          payload: {
            $case: 'statusUpdate',
            value: {
              ...CLEAN,
              status: {
                state: TaskState.TASK_STATE_WORKING,
                timestamp: undefined,
                message: {
                  messageId: HOSTILE,
                  contextId: 'C',
                  taskId: 'T',
                  role: Role.ROLE_AGENT,
                  parts: [{ content: { $case: 'text', value: 'hm' }, metadata: undefined, filename: '', mediaType: '' }],
                  metadata: undefined,
                  extensions: [],
                  referenceTaskIds: [],
                },
              },
              metadata: undefined,
            },
          },
        },
        completed(),
      ];
  }
}

/** The shape the next stream takes, from the message's text. */
const shapeOf = (request: SendMessageRequest): Shape => {
  const part = request.message?.parts[0]?.content;
  return (part?.$case === 'text' ? part.value : 'task id') as Shape;
};

/** The SDK's handler, its streams replaced by what the message's text names; a cancel answered. */
class HostileHandler extends DefaultRequestHandler {
  override async *sendMessageStream(request: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    for (const response of streamOf(shapeOf(request))) yield response;
  }

  override async sendMessage(): Promise<Task> {
    return task(HOSTILE);
  }

  override async cancelTask(): Promise<Task> {
    return { ...task('T'), status: { state: TaskState.TASK_STATE_CANCELED, timestamp: undefined, message: undefined } };
  }
}

const idle: AgentExecutor = { execute: async () => {}, cancelTask: async () => {} };
const info = (name: string) => ({ name, description: 'hostile ids', version: '1.0.0', streaming: true, skills: [] });

/** One mount per binding: JSON-RPC (read by ours and by the SDK's), HTTP+JSON, gRPC. */
async function hostileAgent(): Promise<Host> {
  quietSdkPreStreamErrors();
  const host = await startHost({ record: false });
  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
    const mount = binding === 'JSONRPC' ? '/jsonrpc/' : '/rest/';
    const requestHandler = new HostileHandler(v1Card(info(binding), v1Interfaces(host, mount, [binding])), new InMemoryTaskStore(), idle);
    host.mount(mount, (router) => {
      router.use(PATHS.card, agentCardHandler({ agentCardProvider: requestHandler }));
      if (binding === 'JSONRPC') router.use(PATHS.jsonRpc, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
      else router.use(PATHS.rest, restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
    });
  }
  const bound = await bindGrpc(host, '/grpc/', { record: false });
  const requestHandler = new HostileHandler(v1Card(info('GRPC'), [grpcInterface(bound.target)]), new InMemoryTaskStore(), idle);
  bound.serve(A2AService, grpcService({ requestHandler, userBuilder: GrpcUserBuilder.noAuthentication }));
  host.mount('/grpc/', (router) => router.use(PATHS.card, agentCardHandler({ agentCardProvider: requestHandler })));
  return host;
}

const BINDINGS: ReadonlyArray<{ name: string; mount: string; options: Omit<SdkPortOptions, 'fetch'> }> = [
  { name: 'JSON-RPC, our reader', mount: '/jsonrpc/', options: {} },
  { name: 'JSON-RPC, the SDK reader', mount: '/jsonrpc/', options: { reader: 'sdk' } },
  { name: 'HTTP+JSON', mount: '/rest/', options: {} },
  { name: 'gRPC', mount: '/grpc/', options: {} },
];

const SHAPES: ReadonlyArray<[Shape, string]> = [
  ['task id', 'a task id holding a control character (U+000D at character 2)'],
  ['C1 task id', 'a task id holding a control character (U+009B at character 2)'],
  ['NUL task id', 'a task id holding a control character (U+0000 at character 2)'],
  ['chunk task id', 'a task id holding a control character (U+000D at character 2)'],
  ['status context id', 'a context id holding a control character (U+000D at character 2)'],
  ['artifact id', 'an artifact id holding a control character (U+000D at character 2)'],
  ['message id', 'a message id holding a control character (U+000D at character 2)'],
];

let host: Host;
let http: NodeFetch;
const made: SdkPorts[] = [];

beforeAll(async () => {
  host = await hostileAgent();
  http = createNodeFetch();
});

afterAll(async () => {
  await Promise.all(made.map((ports) => ports.close()));
  await http.close();
  await host.agent.close();
});

function portsFor(options: Omit<SdkPortOptions, 'fetch'>): SdkPorts {
  const ports = createSdkPorts({ fetch: http.fetch, grpc: grpcSupport(), ...options });
  made.push(ports);
  return ports;
}

/** What an Observable emitted before it failed, and how it failed. */
async function settle<T>(source$: Observable<T>): Promise<{ values: T[]; error: unknown }> {
  const values: T[] = [];
  try {
    await lastValueFrom(source$.pipe(toArray())).then((all) => values.push(...all));
    return { values, error: undefined };
  } catch (error) {
    return { values, error };
  }
}

/** No control character of the hostile ids in anything emitted (the forged SSE lines included). */
function expectClean(values: unknown[]): void {
  const text = JSON.stringify(values);
  expect(text).not.toContain('retry: 86400000');
  expect(text).not.toMatch(/\\r|\\u0000|\u009b/);
}

describe.each(BINDINGS)('an agent id with a control character, on $name', ({ mount, options }) => {
  it.each(SHAPES)('%s: the stream fails with a protocol error naming the field, no event carries the id', async (shape, said) => {
    const port = portsFor(options)(host.url(mount));
    const { values, error } = await settle<AgentEvent>(port.stream({ text: shape }));
    expect(error).toMatchObject({ kind: 'protocol', retryable: false, message: expect.stringContaining(said) });
    expect((error as Error).message).not.toMatch(/[\r\n\u0000\u009b]|event: end/);
    expectClean(values);
  });

  it('a turn whose task id would forge SSE lines ends with a protocol error, and no turn event carries the id', async () => {
    const events: unknown[] = [];
    const turn$ = runTurn(portsFor(options)(host.url(mount)), { text: 'task id' }, { policy: { turnTimeoutMs: 10_000 } });
    const { values, error } = await settle(turn$);
    events.push(...values);
    expect(error).toMatchObject({
      kind: 'protocol',
      retryable: false,
      message: expect.stringContaining('a task id holding a control character'),
    });
    expectClean(events);
  });

  it('a blocking send answered with such a task id fails with a protocol error', async () => {
    const { values, error } = await settle(portsFor(options)(host.url(mount)).send({ text: 'send' }));
    expect(error).toMatchObject({
      kind: 'protocol',
      retryable: false,
      message: expect.stringContaining('a task id holding a control character'),
    });
    expectClean(values);
  });
});
