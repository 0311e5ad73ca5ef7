import { createSdkPorts } from 'a4h-a2a';
import { createA2A, createNodeFetch } from 'a4h-a2a/node';
import type { TurnEvent } from 'a4h-a2a';
import type { Observable } from 'rxjs';
import { BENCH_SECRET, FIRST_OF_THREAD, type Driver, type TurnOutcome } from './types.js';

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
  const ports = createSdkPorts({ fetch: http.fetch, reader });
  // A known thread's turn (the steady state of a gateway), and a thread's first message in the process.
  const known = createA2A({ identitySecret: BENCH_SECRET, ports, policy: { continueInterrupted: false } });
  const first = createA2A({ identitySecret: BENCH_SECRET, ports });
  return {
    turn: (agent, text, thread, onFirstChunk, onChunk) =>
      countTurn((thread.startsWith(FIRST_OF_THREAD) ? first : known).turn({ agent, handle: 'bench', thread, text }), onFirstChunk, onChunk),
    close: async () => {
      await Promise.all([known.close(), first.close()]);
      await http.close();
    },
  };
}

/** A turn consumed as the bench consumes it: its `text` events counted (the hooks called), the reply's length from `end`. */
export function countTurn(turn$: Observable<TurnEvent>, onFirstChunk?: () => void, onChunk?: () => void): Promise<TurnOutcome> {
  return new Promise((resolve, reject) => {
    let chunks = 0;
    let replyLength = -1;
    turn$.subscribe({
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
  });
}
