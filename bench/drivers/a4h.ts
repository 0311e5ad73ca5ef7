import { createA2A } from 'a4h-a2a/node';
import { BENCH_SECRET, CONNECTIONS, type Driver } from './types.js';

/**
 * a4h-a2a as a gateway uses it: the Node `createA2A` (undici pool, card cache, derived contextId,
 * the ladder, the renderer), one `turn()` per message, consumed by counting `text` events.
 */
export function a4hDriver(): Driver {
  const client = createA2A({ identitySecret: BENCH_SECRET, http: { connections: CONNECTIONS } });
  return {
    turn: (agent, text, thread, onFirstChunk) =>
      new Promise((resolve, reject) => {
        let chunks = 0;
        let replyLength = -1;
        client.turn({ agent, handle: 'bench', thread, text }).subscribe({
          next: (event) => {
            if (event.type === 'text') {
              if (chunks++ === 0) onFirstChunk?.();
            } else if (event.type === 'end') {
              replyLength = event.text.length;
            }
          },
          error: reject,
          complete: () => resolve({ chunks, replyLength }),
        });
      }),
    close: () => client.close(),
  };
}
