import { map, tap, type Observable } from 'rxjs';
import { ForwardingPort } from '../../port/forwarding.js';
import type { A2APort } from '../../port/port.js';
import type { CardSummary } from '../../port/card.js';
import { notice, type Io } from '../io.js';

/**
 * The port a send's turn runs on, as the caller chose its delivery (the A2A CLI specification's §9.3:
 * the shape follows `--stream`, never the agent). Without `--stream` the turn does not stream even when
 * the agent could: its card is read as not streaming, so the message goes as one blocking SendMessage
 * (then GetTask until the task settles) and the last object is the agent's terminal Task or Message.
 * With `--stream`, the card's streaming capability is checked before the stream is asked for (§11.3): an
 * agent without it gets the blocking send, said once on stderr, and its objects follow as JSON Lines all
 * the same.
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
    if (!this.streamed) return this.inner.card().pipe(map((card) => (card.streaming ? { ...card, streaming: false } : card)));
    return this.inner.card().pipe(
      tap((card) => {
        if (!card.streaming)
          notice(this.io, 'the agent does not stream (its card says so): one blocking send, then GetTask until it settles');
      }),
    );
  }
}
