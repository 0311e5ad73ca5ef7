/**
 * The fault matrix's rig: a fixture agent behind a fault proxy, SDK ports over a Node fetch of
 * their own, short bounds, and per-test checks that nothing leaks (sockets, timers, unhandled
 * rejections). Each test gets a fresh rig from {@link useRig}.
 */
import type { Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../fixtures/fault-proxy.js';
import { handles } from '../../fixtures/handles.js';
import { startV03Agent, startV1Agent, tickText, type FixtureAgent, type FixtureTiming } from '../../fixtures/index.js';
import type { A2AError, A2AErrorKind } from '../../src/errors.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import type { EndEvent, TurnEvent } from '../../src/port/events.js';
import { runTurn, type LadderOptions } from '../../src/turn/turn.js';
import type { PortFactory } from '../../src/port/port.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { eventually } from '../eventually.js';

/** A call of the protocol, as the agent receives it. */
export type Call = 'send' | 'stream' | 'resubscribe' | 'get' | 'cancel';

/** One protocol flavour of the matrix. */
export interface Version {
  name: string;
  start: (timing: Partial<FixtureTiming>) => Promise<FixtureAgent>;
  /** The JSON-RPC method of each call in this version. */
  methods: Readonly<Record<Call, string>>;
  /** Who reads the streams (default: the client's own reader); `sdk` runs the same cells on the SDK's. */
  reader?: 'sdk';
}

const PROTOCOLS: readonly Version[] = [
  {
    name: 'v1.0 JSON-RPC',
    start: (timing) => startV1Agent({ timing }),
    methods: { send: 'SendMessage', stream: 'SendStreamingMessage', resubscribe: 'SubscribeToTask', get: 'GetTask', cancel: 'CancelTask' },
  },
  {
    name: 'v0.3 JSON-RPC',
    start: (timing) => startV03Agent({ timing }),
    methods: { send: 'message/send', stream: 'message/stream', resubscribe: 'tasks/resubscribe', get: 'tasks/get', cancel: 'tasks/cancel' },
  },
];

/** Every version, read by the client's own reader and by the SDK's: the differential run. */
export const VERSIONS: readonly Version[] = [
  ...PROTOCOLS,
  ...PROTOCOLS.map((v): Version => ({ ...v, name: `${v.name}, SDK reader`, reader: 'sdk' })),
];

/** Fixture timing: a `slow` turn ticks 12 times, 15 ms apart, then completes (about 200 ms in all). */
export const TIMING: Partial<FixtureTiming> = { stepMs: 10, tickMs: 15, slowTotalMs: 180 };

/** The reply of the `slow` behaviour under {@link TIMING}: every tick once, in order. */
export const SLOW_REPLY = Array.from({ length: 12 }, (_, i) => tickText(i + 1)).join('');

/**
 * Short bounds: reconnect delays 20–50 ms, poll delays 30–60 ms, a 5 s turn deadline. The idle
 * bound (500 ms) is 25 times the fixture's gap between events, so a loaded machine does not trip it;
 * the cells about idle set their own.
 */
export const POLICY: LadderOptions = {
  random: () => 0,
  policy: {
    cardTimeoutMs: 1_000,
    firstEventTimeoutMs: 1_000,
    idleTimeoutMs: 500,
    authWaitMs: 2_000,
    turnTimeoutMs: 5_000,
    cancelTimeoutMs: 1_000,
    reconnect: { maxAttempts: 3, initialDelayMs: 20, maxDelayMs: 50, jitter: 0 },
    poll: { initialDelayMs: 30, maxDelayMs: 60, jitter: 0, requestTimeoutMs: 1_000, staleAfterMs: 3_000 },
  },
};

/** A fixture agent behind a fault proxy, and ports that reach it through the proxy. */
export interface Rig {
  agent: FixtureAgent;
  proxy: FaultProxy;
  http: NodeFetch;
  ports: PortFactory;
  version: Version;
  /** CancelTask requests that reached the agent. */
  cancels(): number;
  /** Runs one turn of `text` through the proxy, on the root mount unless `mount` says otherwise. */
  turn(text: string, options?: LadderOptions, mount?: string): Promise<TurnResult>;
  /** Requests of one call that reached the agent (past the proxy). */
  reached(call: Call): number;
}

/** Everything one turn did: its events, its error if it failed, how long it took. */
export interface TurnResult {
  events: TurnEvent[];
  error?: A2AError;
  ms: number;
}

/** Subscribes to a turn and collects everything it does (never rejects). */
export function run(turn$: Observable<TurnEvent>): Promise<TurnResult> {
  const started = Date.now();
  const events: TurnEvent[] = [];
  return new Promise((resolve) => {
    turn$.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error: error as A2AError, ms: Date.now() - started }),
      complete: () => resolve({ events, ms: Date.now() - started }),
    });
  });
}

/** The reply as a live UI showed it: the text events folded. */
export function folded(events: readonly TurnEvent[]): string {
  return events.reduce((reply, e) => (e.type === 'text' ? (e.replace ? e.text : reply + e.text) : reply), '');
}

/** The turn completed with exactly one `end`, last, with `reply` — and the folded text events agree. */
export function expectReply(result: TurnResult, reply: string): EndEvent {
  expect(result.error, `the turn failed: ${result.error?.kind}: ${result.error?.message}`).toBeUndefined();
  const ends = result.events.filter((e) => e.type === 'end');
  expect(ends).toHaveLength(1);
  const end = result.events.at(-1) as EndEvent;
  expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: reply });
  expect(folded(result.events)).toBe(reply);
  return end;
}

/** The turn failed with an error of `kind` (and the given fields), and emitted no `end`. */
export function expectError(result: TurnResult, kind: A2AErrorKind, fields: Record<string, unknown> = {}): A2AError {
  expect(result.events.filter((e) => e.type === 'end')).toEqual([]);
  expect(result.error, 'the turn did not fail').toBeDefined();
  expect(result.error).toMatchObject({ name: 'A2AError', kind, ...fields });
  return result.error as A2AError;
}

/** Events of one type. */
export function eventsOf<T extends TurnEvent['type']>(result: TurnResult, type: T): Array<Extract<TurnEvent, { type: T }>> {
  return result.events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CancelTask reached the agent exactly `n` times (0 or 1), and no further one arrives soon after
 * (a CancelTask starts in the turn's teardown, so one that would come is already on its way).
 */
export async function expectCancels(r: Rig, n: 0 | 1): Promise<void> {
  if (n === 1) await eventually(() => r.cancels() >= 1);
  await sleep(40);
  expect(r.proxy.count('cancel'), 'CancelTasks sent').toBe(n);
  expect(r.cancels(), 'CancelTasks that reached the agent').toBe(n);
}

/**
 * Registers the hooks of a fault test file for `version` and returns a getter of the current
 * test's rig: a fresh agent, proxy and fetch per test, closed after it, then checked as
 * {@link useFreshRig} checks.
 */
export function useRig(version: Version, timing: Partial<FixtureTiming> = TIMING): () => Rig {
  return useFreshRig<Rig>(
    async () => {
      const agent = await version.start(timing);
      const proxy = await startFaultProxy(agent.baseUrl);
      const http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
      const ports = createSdkPorts({ fetch: http.fetch, ...(version.reader ? { reader: version.reader } : {}) });
      return {
        agent,
        proxy,
        http,
        ports,
        version,
        cancels: () => agent.received.filter((r) => r.method === version.methods.cancel).length,
        turn: (text, options = POLICY, mount = '/') => run(runTurn(ports(proxy.url(mount)), { text }, options)),
        reached: (call) => agent.received.filter((r) => r.method === version.methods[call]).length,
      };
    },
    async (r) => {
      await r.proxy.close();
      await r.http.close();
      await r.agent.close();
    },
  );
}

/**
 * Registers the hooks of a fault test file and returns a getter of the current test's rig: one
 * `make`s per test, `close`d after it, then checked for leaked sockets and timers; unhandled
 * rejections anywhere in the file fail the test they happen in.
 */
export function useFreshRig<R>(make: () => Promise<R>, close: (rig: R) => Promise<void>): () => R {
  let current: R | undefined;
  let before = new Map<string, number>();
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
  });
  beforeEach(async () => {
    before = handles();
    current = await make();
  });
  afterEach(async () => {
    const r = current;
    current = undefined;
    if (r !== undefined) await close(r);
    const leaked = (): Array<[string, number]> => [...handles()].filter(([type, n]) => n > (before.get(type) ?? 0));
    // Given up quietly: the assertion below names what is left.
    await eventually(() => leaked().length === 0, 2_000).catch(() => undefined);
    expect(leaked(), 'sockets or timers left after the test').toEqual([]);
    expect(rejections, 'unhandled rejections').toEqual([]);
  });
  return () => {
    if (current === undefined) throw new Error('no rig outside a test');
    return current;
  };
}

/** An agent of the wild, a Node fetch and the SDK ports on it: the rig of the wild-agent cells. */
export interface AgentPortsRig<A> {
  agent: A;
  http: NodeFetch;
  ports: PortFactory;
}

/** A fresh rig per test ({@link useFreshRig}): the agent `start` gives, a fetch, and ports with `reader`. */
export function useAgentPortsRig<A extends { close(): Promise<void> }>(
  start: () => Promise<A>,
  reader: 'a4h' | 'sdk',
): () => AgentPortsRig<A> {
  return useFreshRig<AgentPortsRig<A>>(
    async () => {
      const agent = await start();
      const http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
      return { agent, http, ports: createSdkPorts({ fetch: http.fetch, reader }) };
    },
    async (r) => {
      await r.http.close();
      await r.agent.close();
    },
  );
}
