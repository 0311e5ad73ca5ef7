import { createSdkPorts } from 'a4h-a2a';
import { createA2A, createNodeFetch } from 'a4h-a2a/node';
import { BENCH_SECRET, type Driver } from './types.js';

/** Who reads a4h-a2a's JSON-RPC streams: its own reader (the default) or the official SDK's transport. */
export type StreamReader = 'a4h' | 'sdk';

/**
 * a4h-a2a as a gateway uses it: the Node `createA2A` (undici pool, card cache, derived contextId,
 * the ladder, the renderer), one `turn()` per message, consumed by counting `text` events. The pool
 * and the ports are made here, as `createA2A({ http: { connections } })` makes them, so the two
 * a4h-a2a contenders differ in `reader` alone.
 */
export function a4hDriver(reader: StreamReader, connections: number): Driver {
  const http = createNodeFetch({ connections });
  const client = createA2A({ identitySecret: BENCH_SECRET, ports: createSdkPorts({ fetch: http.fetch, reader }) });
  return {
    turn: (agent, text, thread, onFirstChunk, onChunk) =>
      new Promise((resolve, reject) => {
        let chunks = 0;
        let replyLength = -1;
        client.turn({ agent, handle: 'bench', thread, text }).subscribe({
          next: (event) => {
            if (event.type === 'text') {
              if (chunks++ === 0) onFirstChunk?.();
              onChunk?.();
            } else if (event.type === 'end') {
              replyLength = event.text.length;
            }
          },
          error: reject,
          complete: () => resolve({ chunks, replyLength }),
        });
      }),
    close: async () => {
      await client.close();
      await http.close();
    },
  };
}
