import { randomUUID } from 'node:crypto';
import type { SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { clientFactory, userRequest } from '../../fixtures/sdk-client.js';
import type { Driver } from './types.js';
import { pooledFetch } from './undici.js';

/**
 * The raw `@a2a-js/sdk` client: one `Client` per agent (made from its card on first use and kept:
 * the SDK's equivalent of a warm card cache), `for await` over `sendMessageStream`, counting
 * artifact events. Same undici pool settings as a4h-a2a; the same request a4h-a2a sends.
 */
export function sdkDriver(connections: number): Driver {
  const http = pooledFetch(connections);
  const factory = clientFactory({ bindings: ['JSONRPC'], legacyCompat: false, fetchImpl: http.fetch });
  const clients = new Map<string, Promise<Client>>();
  const clientOf = (agent: string): Promise<Client> => {
    let client = clients.get(agent);
    if (client === undefined) {
      client = factory.createFromUrl(agent);
      clients.set(agent, client);
    }
    return client;
  };
  return {
    async turn(agent, text, _thread, onFirstChunk, onChunk) {
      const client = await clientOf(agent);
      let chunks = 0;
      for await (const event of client.sendMessageStream(sdkRequest(text))) {
        if (event.payload?.$case === 'artifactUpdate') {
          if (chunks++ === 0) onFirstChunk?.();
          onChunk?.();
        }
      }
      return { chunks, replyLength: -1 };
    },
    close: () => http.close(),
  };
}

/** The request a4h-a2a's port sends: a fresh messageId, a contextId, historyLength 0. */
export function sdkRequest(text: string): SendMessageRequest {
  return userRequest(text, { contextId: randomUUID(), acceptedOutputModes: ['text/plain', 'text/markdown'] });
}
