import { map, type Observable } from 'rxjs';
import { TestScheduler, type RunHelpers } from 'rxjs/testing';
import { expect, it } from 'vitest';
import type { TurnEvent } from '../src/port/events.js';
import type { A2APort, TaskPage } from '../src/port/port.js';
import type { AgentEvent, SendResult, Task } from '../src/port/types.js';
import type { CardSummary } from '../src/port/card.js';
import { callByCall, createFakePort, testCard, type FakePort } from '../src/testing/index.js';
import { runTurn, type LadderOptions, type TurnRequest } from '../src/turn/turn.js';

/** What the agent answers to one method: one Observable for every call, or one per call (the last repeats). */
type Answers<T> = Observable<T> | Observable<T>[];

/** An agent scripted with cold diagrams. Without `card`, the kit's streaming `card`. */
export interface AgentScript {
  card?: Observable<CardSummary>;
  send?: Answers<SendResult>;
  stream?: Answers<AgentEvent>;
  resubscribe?: Answers<AgentEvent>;
  getTask?: Answers<Task>;
  cancel?: Answers<Task>;
  listTasks?: Answers<TaskPage>;
}

type Cold<T> = Observable<T> & Pick<ReturnType<RunHelpers['cold']>, 'subscriptions'>;

/** A scripted answer and the diagram of its subscriptions (one string, or one per subscription). */
export type Subscribed = readonly [Cold<unknown>, string | string[]];

/** What {@link Kit.expectTurn} asserts beyond its defaults. */
export interface TurnAssertion {
  /** When the turn is unsubscribed (a subscription diagram); by default never. */
  unsub?: string;
  /** The card read once; by default {@link Kit.card}. */
  card?: Cold<CardSummary>;
  /** The letters of `expected`; by default {@link labels}. */
  values?: Record<string, string>;
  /** The error at `#` in `expected`. */
  error?: unknown;
}

export interface Kit extends RunHelpers {
  /** The default card, `(c|)`, streaming: its subscriptions are asserted like any other. */
  card: Cold<CardSummary>;
  /** The same card without streaming, for the blocking rung. */
  blockingCard: Cold<CardSummary>;
  /** A fake port answering with the script (an unscripted method errors). */
  agent(script?: AgentScript): FakePort;
  /**
   * Asserts that the turn read the card (by default {@link Kit.card}; pass {@link Kit.blockingCard}
   * for the blocking rung) once, in the first frame: `(^!)`. Nearly every turn does; a test about
   * the card itself asserts its own diagram instead.
   */
  cardReadOnce(which?: Cold<CardSummary>): void;
  /**
   * What nearly every turn's test asserts, in one call: `turn$`'s events against `expected` (letters of
   * {@link labels} unless `values` says; unsubscribed at `unsub` when given), the card read once
   * ({@link Kit.cardReadOnce} of `card`), and each scripted answer's subscriptions against its diagram.
   */
  expectTurn(turn$: Observable<string>, expected: string, subscribed: readonly Subscribed[], how?: TurnAssertion): void;
}

function answer<T>(answers: Answers<T> | undefined): ((arg: unknown, call: number) => Observable<T>) | undefined {
  if (answers === undefined) return undefined;
  return Array.isArray(answers) ? callByCall(...answers) : () => answers;
}

/**
 * Runs `body` on virtual time and returns what it returns (read it after the run: the port's calls
 * are complete then). Frames are compared with vitest's deep equality, so matchers work for errors.
 */
export function marbles<T>(body: (kit: Kit) => T): T {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run((helpers) => {
    const card = helpers.cold('(c|)', { c: testCard() });
    const blockingCard = helpers.cold('(c|)', { c: testCard({ streaming: false }) });
    const agent = (script: AgentScript = {}): FakePort =>
      createFakePort({
        card: () => script.card ?? card,
        send: answer(script.send),
        stream: answer(script.stream),
        resubscribe: answer(script.resubscribe),
        getTask: answer(script.getTask),
        cancel: answer(script.cancel),
        listTasks: answer(script.listTasks),
      });
    const cardReadOnce = (which: Cold<CardSummary> = card): void => helpers.expectSubscriptions(which.subscriptions).toBe('(^!)');
    const expectTurn: Kit['expectTurn'] = (turn$, expected, subscribed, how = {}) => {
      helpers.expectObservable(turn$, how.unsub).toBe(expected, how.values ?? labels, how.error);
      cardReadOnce(how.card);
      for (const [answer, diagram] of subscribed) helpers.expectSubscriptions(answer.subscriptions).toBe(diagram);
    };
    return body({ ...helpers, card, blockingCard, agent, cardReadOnce, expectTurn });
  });
}

/**
 * Small bounds so diagrams stay short. With `random: () => 0` every backoff is its base delay:
 * reconnect 10, 20, 40…; poll 10 each.
 */
export const options: LadderOptions = {
  random: () => 0,
  policy: {
    cardTimeoutMs: 100,
    sendTimeoutMs: 200,
    firstEventTimeoutMs: 50,
    idleTimeoutMs: 30,
    authWaitMs: 300,
    turnTimeoutMs: 1_000,
    cancelTimeoutMs: 20,
    notReceivedAfterMs: 0,
    reconnect: { maxAttempts: 2, maxElapsedMs: 500, initialDelayMs: 10, factor: 2, maxDelayMs: 100, jitter: 0.5 },
    poll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0, requestTimeoutMs: 20, maxErrors: 1, staleAfterMs: 100 },
  },
};

/** The shared options with some policy bounds changed. */
export function withPolicy(policy: NonNullable<LadderOptions['policy']>): LadderOptions {
  return { ...options, policy: { ...options.policy, ...policy } };
}

/** One short line per turn event, so expected diagrams can name events with letters. */
export function label(event: TurnEvent): string {
  switch (event.type) {
    case 'start':
      return 'start';
    case 'task':
      return `task ${event.taskId}`;
    case 'request':
      return `request "${event.text}"${event.attachments ? ` +${event.attachments.length}` : ''}`;
    case 'status':
      return event.text === undefined ? `status ${event.state}` : `status ${event.state} "${event.text}"`;
    case 'text':
      return `${event.replace ? 'replace' : 'text'} "${event.text}"`;
    case 'attachment':
      return `attachment ${event.attachment.kind === 'file' ? (event.attachment.name ?? 'file') : 'data'}`;
    case 'activity':
      return `activity ${event.kind}`;
    case 'auth-required':
      return `auth-required "${event.text ?? ''}"`;
    case 'surface':
      return `surface ${event.surfaceId} ${event.messages.map((m) => m.kind).join(',')}`;
    case 'surface-refused':
      return `surface refused (${event.reason})`;
    case 'usage':
      return `usage ${event.scope} in ${event.usage.inputTokens ?? '-'} out ${event.usage.outputTokens ?? '-'} total-in ${event.total.inputTokens ?? '-'}`;
    case 'reconnecting':
      return `reconnecting #${event.attempt} in ${event.delayMs}`;
    case 'polling':
      return `polling (${event.reason})`;
    case 'fallback':
      return `fallback to send (${event.cause.kind})`;
    case 'task-gone':
      return `task ${event.taskId} gone (${event.cause.kind})`;
    case 'context-refused':
      return `context ${event.contextId} refused (${event.cause.kind})`;
    case 'reconcile':
      return `reconcile ${event.taskId}`;
    case 'context-adopted':
      return `context ${event.sent} -> ${event.adopted}`;
    case 'push':
      return `push ${event.step}${event.cause ? ` (${event.cause.kind})` : ''}`;
    case 'queued':
      return `queued #${event.place}`;
    case 'end':
      return `end ${event.outcome} "${event.text}"${event.replyMissing ? ` [${event.replyMissing.reason}]` : ''}`;
  }
}

/** The turn for `request` (by default "hi") with the shared options, one label per event. */
export function turn(port: A2APort, request: TurnRequest = { text: 'hi' }, ladder: LadderOptions = options): Observable<string> {
  return runTurn(port, request, ladder).pipe(map(label));
}

/** The text of an auth-required status in these tests. */
export const signIn = 'Sign in at http://127.0.0.1/login';

/** The letters of the expected diagrams, in every file. The agent's reply, when it has one, is "ok". */
export const labels: Record<string, string> = {
  s: 'start',
  t: 'task T',
  u: 'status submitted',
  w: 'status working',
  c: 'status completed',
  C: 'status completed "ok"',
  h: 'text "ok"',
  e: 'end completed ""',
  U: 'end completed "" [unread]',
  E: 'end completed "ok"',
  r: 'reconnecting #1 in 10',
  R: 'reconnecting #2 in 20',
  p: 'polling (resubscribe-failed)',
  P: 'polling (send-returned-early)',
  f: 'fallback to send (unsupported)',
  g: 'task T0 gone (task-not-found)',
  G: 'task T0 gone (unsupported)',
  i: 'status input-required "Which city?"',
  q: 'text "Which city?"',
  I: 'end input-required "Which city?"',
  A: `status auth-required "${signIn}"`,
  a: `auth-required "${signIn}"`,
  l: `text "${signIn}"`,
  L: `end auth-required "${signIn}"`,
};

/** Matches an A2AError by its kind (and any other fields given). */
export function a2aError(fields: Record<string, unknown>): unknown {
  return expect.objectContaining(fields);
}

/** One test of {@link streamedTurns}: the stream's diagram, its subscriptions, and the turn's events. */
export interface StreamedTurn {
  title: string;
  stream: string;
  streamSubs: string;
  expected: string;
}

/** What the turns of one {@link streamedTurns} table share. */
export interface StreamedTurns {
  /** The events the streams' letters stand for. */
  events: Record<string, AgentEvent>;
  /** The turn's request; by default "hi". */
  request?: TurnRequest;
  /** The letters of `expected`; by default {@link labels}. */
  values?: Record<string, string>;
  /** The port's methods, in order, that every turn of the table calls (asserted when given). */
  called?: string[];
}

/**
 * One test per row, under its title: the turn of `request` over an agent whose only scripted answer is
 * the row's stream, asserted with {@link Kit.expectTurn} against the row's `expected` and `streamSubs`.
 */
export function streamedTurns(rows: readonly StreamedTurn[], shared: StreamedTurns): void {
  for (const { title, stream: diagram, streamSubs, expected } of rows) {
    it(title, () => {
      const calls = marbles(({ cold, agent, expectTurn }) => {
        const stream = cold(diagram, shared.events);
        const port = agent({ stream });
        expectTurn(turn(port, shared.request), expected, [[stream, streamSubs]], { values: shared.values });
        return port.calls;
      });
      if (shared.called) expect(calls.map((c) => c.method)).toEqual(shared.called);
    });
  }
}
