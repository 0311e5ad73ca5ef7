/**
 * A v1.0 stream's messages as bytes (`bindings/grpc/bytes.ts`) under the direct delivery interceptor
 * (`node.ts`): the client's stream methods keep the bytes (its other methods do not); for a call with an
 * open sink a text chunk goes to it read (`scan.ts`) and any other message decoded by the SDK's decoder;
 * without a sink the SDK gets every message decoded; a message that cannot be decoded ends the call with
 * INTERNAL and goes nowhere. The real stream is `grpc-direct.test.ts`'s (the support keeps the bytes).
 */
import type { AgentCard, StreamResponse } from '@a2a-js/sdk';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import * as grpcJs from '@grpc/grpc-js';
import { afterAll, describe, expect, it } from 'vitest';
import { keepStreamBytes, keptDecode } from '../../../../src/sdk/wire/bindings/grpc/bytes.js';
import { DIRECT_KEY, openDelivery } from '../../../../src/sdk/wire/bindings/grpc/direct.js';
import { directInterceptor } from '../../../../src/sdk/wire/bindings/grpc/node.js';

type Client = Record<string, unknown>;
const card = { supportedInterfaces: [{ url: '127.0.0.1:9', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }] } as AgentCard;
const transport = (await new GrpcTransportFactory().create('127.0.0.1:9', card)) as unknown as { grpcClient: Client };
afterAll(() => grpcJs.closeClient(transport.grpcClient as unknown as grpcJs.Client));
const decode = (transport.grpcClient['sendStreamingMessage'] as { responseDeserialize: (bytes: Buffer) => unknown }).responseDeserialize;

/** The deserializer each of the client's methods hands grpc-js, once its streams keep their bytes. */
function deserializers(): Record<string, unknown> {
  const client = transport.grpcClient;
  keepStreamBytes(transport);
  const seen: Record<string, unknown> = {};
  const capture = (name: string) => (_path: string, _serialize: unknown, deserialize: unknown) => (seen[name] = deserialize);
  for (const name of ['sendStreamingMessage', 'subscribeToTask']) {
    client['makeServerStreamRequest'] = capture(name);
    (client[name] as (...args: unknown[]) => unknown)({}, new grpcJs.Metadata(), {});
  }
  delete client['makeServerStreamRequest'];
  return seen;
}

const encode = (response: StreamResponse): Buffer => A2AService.sendStreamingMessage.responseSerialize(response);
const textChunk = encode({
  payload: {
    $case: 'artifactUpdate',
    value: {
      taskId: 'T',
      contextId: 'C',
      artifact: {
        artifactId: 'out',
        name: '',
        description: '',
        parts: [{ content: { $case: 'text', value: 'hi' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
      },
      append: true,
      lastChunk: false,
      metadata: undefined,
    },
  },
});
const working = encode({
  payload: {
    $case: 'statusUpdate',
    value: { taskId: 'T', contextId: 'C', status: { state: 2, message: undefined, timestamp: undefined }, metadata: undefined },
  },
});
const garbage = Buffer.from([0x22, 0x05, 0x0a]);

/** The interceptor over a stand-in call whose method's deserializer is `responseDeserialize`. */
function intercepted(responseDeserialize: unknown, key?: string) {
  const under = { reads: 0, cancelled: [] as Array<[number, string]>, listener: undefined as grpcJs.InterceptingListener | undefined };
  const next = {
    start: (_md: grpcJs.Metadata, listener: grpcJs.InterceptingListener) => (under.listener = listener),
    startRead: () => under.reads++,
    sendMessageWithContext: () => undefined,
    halfClose: () => undefined,
    cancelWithStatus: (code: number, details: string) => under.cancelled.push([code, details]),
    getPeer: () => 'stand-in',
    getAuthContext: () => null,
  };
  const options = {
    method_definition: {
      path: '/lf.a2a.v1.A2AService/SendStreamingMessage',
      requestStream: false,
      responseStream: true,
      responseDeserialize,
    },
  };
  const call = directInterceptor(grpcJs)(options as unknown as grpcJs.InterceptorOptions, () => next as unknown as grpcJs.InterceptingCall);
  const metadata = new grpcJs.Metadata();
  if (key !== undefined) metadata.set(DIRECT_KEY, key);
  const above: unknown[] = [];
  call.start(metadata, { onReceiveMessage: (message) => above.push(message) });
  return { under, above };
}

describe('a v1.0 stream whose messages come as bytes', () => {
  it("the client's two stream methods keep the bytes, standing for the SDK's decoder; its other methods are as they were", () => {
    const kept = deserializers();
    for (const name of ['sendStreamingMessage', 'subscribeToTask']) {
      expect((kept[name] as (bytes: Buffer) => unknown)(working)).toBe(working);
      expect(keptDecode(kept[name])).toBeTypeOf('function');
      expect(keptDecode(kept[name])!(working)).toEqual(decode(working));
    }
    expect(Object.hasOwn(transport.grpcClient, 'sendMessage')).toBe(false);
    expect(keptDecode(decode)).toBeUndefined();
  });

  it('with an open sink: a text chunk goes read, another message decoded, each read followed by the next; garbage ends the call', () => {
    const { sendStreamingMessage: keep } = deserializers();
    const got: Array<[unknown, boolean | undefined]> = [];
    const delivery = openDelivery((message, read) => got.push([message, read]));
    try {
      const { under, above } = intercepted(keep, delivery.key);
      under.listener!.onReceiveMessage(working);
      under.listener!.onReceiveMessage(textChunk);
      expect(got).toEqual([
        [decode(working), undefined],
        [
          {
            kind: 'artifact',
            taskId: 'T',
            contextId: 'C',
            artifact: { artifactId: 'out', parts: [{ kind: 'text', text: 'hi' }] },
            append: true,
            lastChunk: false,
          },
          true,
        ],
      ]);
      expect(under.reads).toBe(2);
      under.listener!.onReceiveMessage(garbage);
      expect(got).toHaveLength(2);
      expect(under.reads).toBe(2);
      expect(under.cancelled).toEqual([[grpcJs.status.INTERNAL, expect.stringMatching(/^Response message parsing error: /)]]);
      expect(above).toEqual([]);
    } finally {
      delivery.close();
    }
  });

  it('without a sink: the SDK gets every message decoded; garbage ends the call', () => {
    const { subscribeToTask: keep } = deserializers();
    const { under, above } = intercepted(keep);
    under.listener!.onReceiveMessage(textChunk);
    under.listener!.onReceiveMessage(working);
    expect(above).toEqual([decode(textChunk), decode(working)]);
    under.listener!.onReceiveMessage(garbage);
    expect(above).toHaveLength(2);
    expect(under.cancelled).toHaveLength(1);
    expect(under.reads).toBe(0);
  });
});
