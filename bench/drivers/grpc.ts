import { ClientFactory, ClientFactoryOptions, type Client } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { createSdkPorts } from 'a4h-a2a';
import { createA2A, createNodeFetch, grpcSupport } from 'a4h-a2a/node';
import type { StreamReader } from './a4h.js';
import { countTurn } from './a4h.js';
import { sdkRequest } from './sdk.js';
import { BENCH_SECRET, type Driver } from './types.js';

/**
 * a4h-a2a against a gRPC agent: the Node `createA2A` as a gateway uses it (its card's only
 * interface is gRPC, so the SDK's gRPC transport is loaded and chosen), one `turn()` per message;
 * `reader` says who delivers its streams' messages (`sdk`: the SDK's async iterators).
 */
export function a4hGrpcDriver(reader: StreamReader): Driver {
  const http = createNodeFetch();
  const ports = createSdkPorts({ fetch: http.fetch, grpc: grpcSupport(), reader });
  const a2a = createA2A({ identitySecret: BENCH_SECRET, ports, policy: { continueInterrupted: false } });
  return {
    turn: (agent, text, thread, onFirstChunk, onChunk) =>
      countTurn(a2a.turn({ agent, handle: 'bench', thread, text }), onFirstChunk, onChunk),
    close: async () => {
      await a2a.close();
      await ports.close();
      await http.close();
    },
  };
}

/**
 * The raw `@a2a-js/sdk` gRPC client: its `GrpcTransportFactory`, one `Client` per agent made from
 * its card on first use and kept, `for await` over `sendMessageStream`, counting artifact events.
 */
export function sdkGrpcDriver(): Driver {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
      preferredTransports: ['GRPC'],
    }),
  );
  const clients = new Map<string, Promise<Client>>();
  return {
    async turn(agent, text, _thread, onFirstChunk, onChunk) {
      let client = clients.get(agent);
      if (client === undefined) {
        client = factory.createFromUrl(agent);
        clients.set(agent, client);
      }
      let chunks = 0;
      for await (const event of (await client).sendMessageStream(sdkRequest(text))) {
        if (event.payload?.$case === 'artifactUpdate') {
          if (chunks++ === 0) onFirstChunk?.();
          onChunk?.();
        }
      }
      return { chunks, replyLength: -1 };
    },
    close: async () => {
      for (const client of clients.values()) {
        const grpcClient = (await client).transport as unknown as { grpcClient?: { close(): void } };
        grpcClient.grpcClient?.close();
      }
    },
  };
}
