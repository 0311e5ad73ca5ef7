import { afterEach, beforeEach } from 'vitest';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { startGrpcAgent } from '../../fixtures/agent-grpc.js';
import { startV03Agent, startV1Agent, V03_MOUNTS, type FixtureAgent, type ReceivedRequest } from '../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import { grpcSupport } from '../../src/node/grpc.js';
import type { TurnEvent, EndEvent } from '../../src/port/events.js';
import type { LadderOptions } from '../../src/turn/turn.js';
import { createSdkPorts, type SdkPortOptions, type SdkPorts } from '../../src/sdk/ports.js';

export type Call = 'send' | 'stream' | 'resubscribe' | 'get' | 'cancel';

/** One agent flavour the integration tests run against. */
export interface Target {
  name: string;
  start: () => Promise<FixtureAgent>;
  /** The streaming mount. */
  main: string;
  nostream?: string;
  noresub?: string;
  /** Whether a recorded request is a call of that kind. */
  is(call: Call, request: ReceivedRequest): boolean;
  historyLength: number;
  /** The server keeps a stream open at AUTH_REQUIRED (the v1 SDK server does; the v0.3 one closes it). */
  keepsAuthOpen: boolean;
  /** Who reads the streams (default: the client's own reader, gRPC's straight to the turn); `sdk` runs the same cells on the SDK's. */
  reader?: 'sdk';
}

const JSONRPC_V1: Record<Call, string> = {
  send: 'SendMessage',
  stream: 'SendStreamingMessage',
  resubscribe: 'SubscribeToTask',
  get: 'GetTask',
  cancel: 'CancelTask',
};
const JSONRPC_V03: Record<Call, string> = {
  send: 'message/send',
  stream: 'message/stream',
  resubscribe: 'tasks/resubscribe',
  get: 'tasks/get',
  cancel: 'tasks/cancel',
};
const REST: Record<Call, RegExp> = {
  send: /^POST \/message:send$/,
  stream: /^POST \/message:stream$/,
  resubscribe: /^(GET|POST) \/tasks\/[^/]+:subscribe$/,
  get: /^GET \/tasks\/[^/:?]+(\?.*)?$/,
  cancel: /^POST \/tasks\/[^/]+:cancel$/,
};

const REST_V03: Record<Call, RegExp> = {
  send: /^POST \/v1\/message:send$/,
  stream: /^POST \/v1\/message:stream$/,
  resubscribe: /^(GET|POST) \/v1\/tasks\/[^/]+:subscribe$/,
  get: /^GET \/v1\/tasks\/[^/:?]+(\?.*)?$/,
  cancel: /^POST \/v1\/tasks\/[^/]+:cancel$/,
};
/** gRPC methods, the last segment of a call's path (`/lf.a2a.v1.A2AService/GetTask`); v0.3 resubscribes with `TaskSubscription`. */
const GRPC_V1: Record<Call, string> = { ...JSONRPC_V1 };
const GRPC_V03: Record<Call, string> = { ...JSONRPC_V1, resubscribe: 'TaskSubscription' };
const isGrpc = (r: ReceivedRequest): boolean => /^\/(lf\.)?a2a\.v1\.A2AService\//.test(r.path);

export const TARGETS: Target[] = [
  {
    name: 'v1.0 JSON-RPC',
    start: () => startV1Agent(),
    main: '/',
    nostream: '/nostream/',
    noresub: '/noresub/',
    is: (call, r) => r.method === JSONRPC_V1[call],
    historyLength: 0,
    keepsAuthOpen: true,
  },
  {
    name: 'v1.0 HTTP+JSON',
    start: () => startV1Agent(),
    main: '/rest/',
    is: (call, r) => REST[call].test(r.method),
    historyLength: 0,
    keepsAuthOpen: true,
  },
  {
    name: 'v0.3 JSON-RPC',
    start: () => startV03Agent(),
    main: '/',
    nostream: '/nostream/',
    noresub: '/noresub/',
    is: (call, r) => r.method === JSONRPC_V03[call],
    historyLength: 1,
    keepsAuthOpen: false,
  },
  {
    name: 'v1.0 gRPC',
    start: () => startGrpcAgent(),
    main: '/',
    nostream: '/nostream/',
    noresub: '/noresub/',
    is: (call, r) => isGrpc(r) && r.method === GRPC_V1[call],
    historyLength: 0,
    keepsAuthOpen: true,
  },
  {
    name: 'v0.3 gRPC',
    start: () => startGrpcAgent({ version: '0.3' }),
    main: '/',
    nostream: '/nostream/',
    noresub: '/noresub/',
    is: (call, r) => isGrpc(r) && r.method === GRPC_V03[call],
    historyLength: 1,
    keepsAuthOpen: false,
  },
];

/** The v0.3 agent's HTTP+JSON interface (the SDK's v0.3 REST client drops `append`, so it is not one of the cells). */
export const V03_REST: Target = {
  name: 'v0.3 HTTP+JSON',
  start: () => startV03Agent(),
  main: V03_MOUNTS.rest,
  is: (call, r) => REST_V03[call].test(r.method),
  historyLength: 1,
  keepsAuthOpen: false,
};

/**
 * The same cells read by the SDK's own transport (JSON-RPC), and v1.0 gRPC's messages through the SDK's
 * iterators instead of straight to the turn: the two must agree (the differential run).
 */
TARGETS.push(
  ...TARGETS.filter((t) => t.name.includes('JSON-RPC') || t.name === 'v1.0 gRPC').map((t): Target => ({
    ...t,
    name: `${t.name}, SDK reader`,
    reader: 'sdk',
  })),
);
/** Bounds short enough for loopback tests, long enough for the fixtures' pauses. */
export const FAST: LadderOptions = {
  policy: {
    firstEventTimeoutMs: 2_000,
    idleTimeoutMs: 2_000,
    authWaitMs: 3_000,
    turnTimeoutMs: 10_000,
    cancelTimeoutMs: 2_000,
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    poll: { initialDelayMs: 30, maxDelayMs: 60, staleAfterMs: 5_000 },
  },
};

/** A fixture server and SDK ports over a Node fetch of their own, all closed by `close()`. */
export interface Rig {
  agent: FixtureAgent;
  ports: SdkPorts;
  http: NodeFetch;
  close(): Promise<void>;
}

/** More options of the rig's ports, given the running fixture (an option keyed by its origin, say). */
export type RigOptions = (agent: FixtureAgent) => Omit<SdkPortOptions, 'fetch'>;

export async function rig(target: Target, outputModes?: string[], options?: RigOptions): Promise<Rig> {
  const agent = await target.start();
  const http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
  const ports = createSdkPorts({
    ...options?.(agent),
    fetch: http.fetch,
    grpc: grpcSupport(),
    ...(outputModes ? { outputModes } : {}),
    ...(target.reader ? { reader: target.reader } : {}),
  });
  return {
    agent,
    ports,
    http,
    close: async () => {
      await ports.close();
      await http.close();
      await agent.close();
    },
  };
}

export function collect(turn$: Observable<TurnEvent>): Promise<TurnEvent[]> {
  return lastValueFrom(turn$.pipe(toArray()));
}

export function endOf(events: TurnEvent[]): EndEvent {
  const last = events.at(-1);
  if (last?.type !== 'end') throw new Error(`the turn did not end with an end event: ${JSON.stringify(last)}`);
  return last;
}

/** The reply as a live UI would have shown it: the text events folded. */
export function folded(events: TurnEvent[]): string {
  return events.reduce((reply, e) => (e.type === 'text' ? (e.replace ? e.text : reply + e.text) : reply), '');
}

export function calls(agent: FixtureAgent, target: Target, call: Call): ReceivedRequest[] {
  return agent.received.filter((r) => target.is(call, r));
}

/** A fresh rig on `target` for each test of the calling describe, told to `use`; closed after the test. */
export function useTargetRig(target: Target, use: (r: Rig) => void): void {
  let current: Rig | undefined;
  beforeEach(async () => {
    current = await rig(target);
    use(current);
  });
  afterEach(() => current?.close());
}
