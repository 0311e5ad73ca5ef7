import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import type { Driver } from './types.js';
import { pooledFetch } from './undici.js';

/**
 * The floor: no SDK. undici fetch POSTs the same JSON-RPC body the SDK sends; the body is read
 * with `TextDecoder` → `eventsource-parser` → `JSON.parse`, counting artifact events. What any
 * client must at least do per event.
 */
export function floorDriver(connections: number): Driver {
  const http = pooledFetch(connections);
  let nextId = 1;
  return {
    async turn(agent, text, _thread, onFirstChunk, onChunk) {
      const response = await http.fetch(agent, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'A2A-Version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          method: 'SendStreamingMessage',
          params: {
            message: { messageId: randomUUID(), contextId: randomUUID(), role: 'ROLE_USER', parts: [{ text, mediaType: 'text/plain' }] },
            configuration: { acceptedOutputModes: ['text/plain', 'text/markdown'], historyLength: 0 },
          },
          id: nextId++,
        }),
      });
      if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
      let chunks = 0;
      const parser = createParser({
        onEvent: (event) => {
          const frame = JSON.parse(event.data) as { result?: { artifactUpdate?: unknown } };
          if (frame.result?.artifactUpdate !== undefined) {
            if (chunks++ === 0) onFirstChunk?.();
            onChunk?.();
          }
        },
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
      return { chunks, replyLength: -1 };
    },
    close: () => http.close(),
  };
}
