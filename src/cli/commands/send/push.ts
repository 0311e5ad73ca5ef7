import { randomUUID } from 'node:crypto';
import { defer, switchMap, tap, type Observable } from 'rxjs';
import {
  type A2APort,
  type AgentEvent,
  type CardSummary,
  createPushReceiver,
  ForwardingPort,
  type OutgoingMessage,
  type PushSource,
  type SendResult,
} from '../../../node/index.js';
import { notice, UsageError, type Io } from '../../core/io.js';
import { pushSecrets, pushUrlOf } from '../../core/push.js';
import { terminalLine } from '../../output/terminal-text.js';

/** What `send --push-url` asks of each message: where the agent posts, and the secret its credential is derived from. */
export interface PushAsk {
  url: string;
  secret: string;
}

/**
 * `--push-url URL` read with the identity secret it needs, before anything is opened: undefined
 * without the flag; a usage error without `A4H_IDENTITY_SECRET` (the receiver at URL checks the
 * credential with the same secret: one made for this run would be checked by nobody).
 */
export function pushAskOf(values: { 'push-url'?: string | undefined }, env: NodeJS.ProcessEnv): PushAsk | undefined {
  const url = pushUrlOf(values['push-url']);
  if (url === undefined) return undefined;
  const secrets = pushSecrets(env, false);
  if (secrets === undefined) {
    throw new UsageError(
      '--push-url signs the push credential with A4H_IDENTITY_SECRET, which is not set (the receiver at the URL checks it with the same secret)',
    );
  }
  return { url, secret: secrets.secret };
}

/**
 * The contextId a message asking for pushes goes with: the one it names, else the task's it continues,
 * else a new one (the credential names the conversation, so the message must name one: an agent
 * starts the conversation under the id a client gives, as it does a thread's).
 */
export function pushContextOf(contextId: string | undefined, taskContextId: string | undefined): string {
  return contextId ?? taskContextId ?? randomUUID();
}

/**
 * The port of a send whose message asks the agent to post the task's updates to a receiver run
 * elsewhere (`--push-url`: another `a4h task subscribe --push`, a gateway): every send and stream
 * carries the push config (`OutgoingMessage.push`: the URL and a credential naming the message's
 * conversation, derived from the identity secret), which the agent keeps for the task. An agent whose
 * card does not offer push notifications ignores it: said once on stderr.
 */
export class PushAskingPort extends ForwardingPort {
  private readonly targets: PushSource;
  private told = false;

  constructor(
    inner: A2APort,
    ask: PushAsk,
    private readonly contextId: string,
    private readonly io: Io,
  ) {
    super(inner);
    this.targets = createPushReceiver({ url: ask.url, secret: ask.secret });
  }

  override card(): Observable<CardSummary> {
    return this.inner.card().pipe(
      tap((card) => {
        if (card.pushNotifications === true || this.told) return;
        this.told = true;
        notice(this.io, terminalLine(`the agent's card does not offer push notifications: it may post nothing to --push-url`));
      }),
    );
  }

  override send(message: OutgoingMessage): Observable<SendResult> {
    return this.asking(message, (asked) => this.inner.send(asked));
  }

  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.asking(message, (asked) => this.inner.stream(asked));
  }

  private asking<T>(message: OutgoingMessage, call: (message: OutgoingMessage) => Observable<T>): Observable<T> {
    const contextId = message.contextId ?? this.contextId;
    return defer(() => this.targets.target(contextId)).pipe(switchMap((push) => call({ ...message, contextId, push })));
  }
}
