import { randomUUID } from 'node:crypto';
import { Role, type SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { CONNECTIONS, type Driver } from './types.js';
import { pooledFetch } from './undici.js';

/**
 * The raw `@a2a-js/sdk` client: one `Client` per agent (made from its card on first use and kept:
 * the SDK's equivalent of a warm card cache), `for await` over `sendMessageStream`, counting
 * artifact events. Same undici pool settings as a4h-a2a; the same request a4h-a2a sends.
 */
export function sdkDriver(): Driver {
  const http = pooledFetch(CONNECTIONS);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: http.fetch })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: http.fetch }),
    }),
  );
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
    async turn(agent, text, _thread, onFirstChunk) {
      const client = await clientOf(agent);
      let chunks = 0;
      for await (const event of client.sendMessageStream(sdkRequest(text))) {
        if (event.payload?.$case === 'artifactUpdate' && chunks++ === 0) onFirstChunk?.();
      }
      return { chunks, replyLength: -1 };
    },
    close: () => http.close(),
  };
}

/** The request a4h-a2a's port sends: a fresh messageId, a contextId, historyLength 0. */
export function sdkRequest(text: string): SendMessageRequest {
  return {
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: randomUUID(),
      taskId: '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: ['text/plain', 'text/markdown'],
      historyLength: 0,
      returnImmediately: false,
      taskPushNotificationConfig: undefined,
    },
    metadata: undefined,
  };
}
