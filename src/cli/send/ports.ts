import { tap, type Observable } from 'rxjs';
import { ForwardingPort } from '../../port/forwarding.js';
import type { A2APort, CardSummary } from '../../node/index.js';
import { notice, type Io } from '../io.js';

/**
 * The port a send's turn runs on: with `--stream`, the card's streaming capability is checked before the
 * stream is asked for (the A2A CLI specification's §11.3): an agent without it gets a blocking send, said
 * once on stderr, and its objects follow as JSON Lines all the same. Without `--stream` the turn streams
 * when the agent can (its task is named at once, so a timeout or Ctrl-C cancels it), prints nothing until
 * the end and then the agent's terminal object.
 */
export class DeliveryPort extends ForwardingPort {
  constructor(
    inner: A2APort,
    private readonly streamed: boolean,
    private readonly io: Io,
  ) {
    super(inner);
  }

  override card(): Observable<CardSummary> {
    if (!this.streamed) return this.inner.card();
    return this.inner.card().pipe(
      tap((card) => {
        if (!card.streaming)
          notice(this.io, 'the agent does not stream (its card says so): one blocking send, then GetTask until it settles');
      }),
    );
  }
}
