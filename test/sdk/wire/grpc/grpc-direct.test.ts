/**
 * A v1.0 gRPC stream's messages handed straight to the turn (`bindings/grpc/direct.ts`): the channel
 * interceptor, on a stand-in for the call under it (the key taken off, each message to its sink and the
 * next one asked for, the rest passed on), and on a real agent (the whole reply, the key never on the
 * wire, no sink left open after a turn however it ends). The shared cells run on both deliveries
 * (`test/sdk/harness.ts`: v1.0 gRPC with `reader: 'sdk'` is the SDK's).
 */
import * as grpcJs from '@grpc/grpc-js';
import { firstValueFrom, lastValueFrom, tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../../../fixtures/agent-grpc.js';
import { REPLY } from '../../../../fixtures/index.js';
import { grpcSupport } from '../../../../src/node/grpc.js';
import { DIRECT_KEY, openDeliveries, openDelivery } from '../../../../src/sdk/wire/bindings/grpc/direct.js';
import { directInterceptor } from '../../../../src/sdk/wire/bindings/grpc/node.js';
import { createSdkPorts, type SdkPortOptions } from '../../../../src/sdk/ports.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { eventually } from '../../../eventually.js';
import { collect, endOf, FAST } from '../../harness.js';

/** What the call under the interceptor saw: the metadata it started with, the reads asked, and its listener. */
interface Under {
  metadata?: grpcJs.Metadata;
  listener?: grpcJs.InterceptingListener;
  reads: number;
}

/** The interceptor over a stand-in call; `responseStream` says whether the method streams its answer. */
function intercepted(responseStream: boolean, metadata: grpcJs.Metadata) {
  const under: Under = { reads: 0 };
  const next = {
    start: (md: grpcJs.Metadata, listener: grpcJs.InterceptingListener) => Object.assign(under, { metadata: md, listener }),
    startRead: () => under.reads++,
    sendMessageWithContext: () => undefined,
    halfClose: () => undefined,
    cancelWithStatus: () => undefined,
    getPeer: () => 'stand-in',
    getAuthContext: () => null,
  };
  const options = { method_definition: { path: '/a2a.v1.A2AService/Call', requestStream: false, responseStream } };
  const call = directInterceptor(grpcJs)(options as grpcJs.InterceptorOptions, () => next as unknown as grpcJs.InterceptingCall);
  const above = { metadata: [] as unknown[], messages: [] as unknown[], statuses: [] as unknown[] };
  call.start(metadata, {
    onReceiveMetadata: (md) => above.metadata.push(md),
    onReceiveMessage: (message) => above.messages.push(message),
    onReceiveStatus: (status) => above.statuses.push(status),
  });
  return { under, above };
}

const keyed = (key: string): grpcJs.Metadata => {
  const metadata = new grpcJs.Metadata();
  metadata.set('a2a-version', '1.0');
  metadata.set(DIRECT_KEY, key);
  return metadata;
};

const OK = { code: grpcJs.status.OK, details: '', metadata: new grpcJs.Metadata() };

describe('the direct delivery interceptor', () => {
  it('a stream call naming an open sink: the key is taken off, each message goes to the sink and the next is asked for; metadata and status go on', () => {
    const got: unknown[] = [];
    const delivery = openDelivery((message) => got.push(message));
    try {
      const { under, above } = intercepted(true, keyed(delivery.key));
      expect(under.metadata?.get(DIRECT_KEY)).toEqual([]);
      expect(under.metadata?.get('a2a-version')).toEqual(['1.0']);
      under.listener!.onReceiveMetadata(new grpcJs.Metadata());
      under.listener!.onReceiveMessage('one');
      under.listener!.onReceiveMessage('two');
      under.listener!.onReceiveStatus(OK);
      expect(got).toEqual(['one', 'two']);
      expect(under.reads).toBe(2);
      expect(above).toMatchObject({ messages: [], statuses: [OK] });
      expect(above.metadata).toHaveLength(1);
    } finally {
      delivery.close();
    }
  });

  it('a unary call, or a key whose sink is closed: the key is taken off, the messages pass on as they came', () => {
    const got: unknown[] = [];
    const delivery = openDelivery((message) => got.push(message));
    const unary = intercepted(false, keyed(delivery.key));
    delivery.close();
    const closed = intercepted(true, keyed(delivery.key));
    for (const { under, above } of [unary, closed]) {
      expect(under.metadata?.get(DIRECT_KEY)).toEqual([]);
      under.listener!.onReceiveMessage('answer');
      under.listener!.onReceiveStatus(OK);
      expect(above).toMatchObject({ messages: ['answer'], statuses: [OK] });
      expect(under.reads).toBe(0);
    }
    expect(got).toEqual([]);
  });
});

describe('direct delivery on a v1.0 gRPC agent', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function setup(
    options: SdkPortOptions = {},
  ): Promise<{ agent: GrpcFixtureAgent; port: ReturnType<ReturnType<typeof createSdkPorts>> }> {
    const agent = await startGrpcAgent();
    const ports = createSdkPorts({ grpc: grpcSupport(), ...options });
    closers.push(
      () => ports.close(),
      () => agent.close(),
    );
    return { agent, port: ports(agent.url('/')) };
  }

  it('the whole reply, through a sink open while the stream is: the key never reaches the agent', async () => {
    const { agent, port } = await setup();
    agent.faults('/').plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 300 } });
    const before = openDeliveries();
    const turn = collect(runTurn(port, { text: 'artifacts' }, FAST));
    await eventually(() => openDeliveries() === before + 1);
    expect(endOf(await turn)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    expect(openDeliveries()).toBe(before);
    const calls = agent.received.filter((r) => r.path.includes('A2AService/'));
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(Object.keys(call.headers)).not.toContain(DIRECT_KEY);
  });

  it("with reader 'sdk' the messages come through the SDK's iterators: no sink is opened", async () => {
    const { agent, port } = await setup({ reader: 'sdk' });
    agent.faults('/').plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 300 } });
    const before = openDeliveries();
    let most = before;
    const end = await lastValueFrom(runTurn(port, { text: 'artifacts' }, FAST).pipe(tap(() => (most = Math.max(most, openDeliveries())))));
    expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.artifacts });
    expect(most).toBe(before);
  });

  it('no sink is left open after a turn abandoned mid-stream, or one whose stream is cut', async () => {
    const { agent, port } = await setup();
    const before = openDeliveries();
    agent.faults('/').plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
    await firstValueFrom(runTurn(port, { text: 'artifacts' }, FAST));
    await eventually(() => openDeliveries() === before);
    agent.faults('/').plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'drop' } });
    expect(endOf(await collect(runTurn(port, { text: 'artifacts' }, FAST)))).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    expect(openDeliveries()).toBe(before);
  });
});
