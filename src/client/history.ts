import { defer, map, type Observable } from 'rxjs';
import { Threads } from '../identity/threads.js';
import type { HistoryPage } from '../port/history.js';
import type { PortFactory } from '../port/port.js';
import type { TurnPolicy } from '../turn/policy.js';
import { threadHistory } from '../turn/thread/thread-history.js';
import { checkHistoryInput } from './input.js';
import { portTurn } from './on-port.js';
import { historyDrawnBy, surfaceAgentOf } from './surface-origin.js';
import type { HistoryInput } from './types.js';

/** What a client's history reads with: its threads (an adopted contextId), its ports, its policy. */
export interface HistoryParts {
  threads: Threads;
  ports: PortFactory;
  policy: TurnPolicy;
}

/**
 * A thread's history page ({@link threadHistory}) on the thread's contextId: the one given, the one the
 * thread adopted from the agent, or the derived one. Its input is checked when subscribed (an `input`
 * error, before any request). Its surfaces name their agent. Not a turn: nothing is remembered, traced or waited for by `close()`.
 */
export function clientHistory(parts: HistoryParts, input: HistoryInput): Observable<HistoryPage> {
  return defer(() => {
    const cardUrl = checkHistoryInput(input);
    const key = Threads.key(cardUrl, input.handle, input.thread);
    const agent = surfaceAgentOf(cardUrl);
    const port = parts.ports(input.agent, portTurn(input));
    const { limit, before, maxBytes } = input;
    const options = {
      policy: parts.policy,
      ...(limit === undefined ? {} : { limit }),
      ...(before === undefined ? {} : { before }),
      ...(maxBytes === undefined ? {} : { maxBytes }),
    };
    return parts.threads
      .withContextId(key, input, (contextId) => threadHistory(port, contextId, options))
      .pipe(map((page) => historyDrawnBy(page, agent)));
  });
}
