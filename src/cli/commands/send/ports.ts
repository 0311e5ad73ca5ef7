import { defer, tap, type Observable } from 'rxjs';
import {
  type A2APort,
  type AgentEvent,
  type CardSummary,
  ForwardingPort,
  type OutgoingMessage,
  type SendResult,
} from '../../../node/index.js';
import { notice, type Io } from '../../core/io.js';

/**
 * The port a send's turn runs on: with `--stream`, the card's streaming capability is checked before the
 * stream is asked for (the A2A CLI specification's §11.3): an agent without it gets a blocking send, said
 * once on stderr, and its objects follow as JSON Lines all the same. Without `--stream` the turn streams
 * when the agent can (its task is named at once, so a timeout or Ctrl-C cancels it), prints nothing until
 * the end and then the agent's terminal object.
 */
export class DeliveryPort extends ForwardingPort {
  /** The card the turn read (an unreachable interface's hint names the others it offers). */
  seen: CardSummary | undefined;
  /** The message was handed to the transport (a send or a stream was made): a cancel before then left nothing at the agent. */
  went = false;

  constructor(
    inner: A2APort,
    private readonly streamed: boolean,
    private readonly io: Io,
  ) {
    super(inner);
  }

  override card(): Observable<CardSummary> {
    return this.inner.card().pipe(
      tap((card) => {
        this.seen = card;
        if (this.streamed && !card.streaming)
          notice(this.io, 'the agent does not stream (its card says so): one blocking send, then GetTask until it settles');
      }),
    );
  }

  override send(message: OutgoingMessage): Observable<SendResult> {
    return defer(() => {
      this.went = true;
      return this.inner.send(message);
    });
  }

  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    return defer(() => {
      this.went = true;
      return this.inner.stream(message);
    });
  }
}
