import type { Signal } from '@angular/core';
import type { ObservableInput } from 'rxjs';
import type { InterruptReply } from '../client/answer.js';
import type { A2AClient, TurnInput } from '../client/create-a2a.js';
import type { A2AError } from '../errors.js';
import type { SurfaceActionInput } from '../client/surface-action.js';
import type { SurfaceView } from '../port/a2ui.js';
import type { Interrupt, SurfaceRefusedEvent } from '../port/events.js';
import type { HistoryExchange } from '../port/history.js';
import type { CoalesceOptions } from '../render/coalesce.js';
import type { TurnView } from '../render/view.js';

/**
 * One chat thread to one agent, for {@link a2aConversation}. With `coalesceMs` (e.g. 50) `view`
 * changes at most once per window while a turn runs: its first view and its end at once, the
 * latest in between (see the core's `coalesceViews`); without it, once per event.
 */
export interface A2AConversationOptions extends CoalesceOptions {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle: part of the contextId derivation. */
  handle: string;
  /** The conversation key. */
  thread: string;
  /**
   * The thread's contextId from your backend (which keeps the identity secret and calls
   * `deriveContextId`): called, and its first value taken, inside each turn's Observable (and each
   * resume's), so no app initializer is needed and a failed fetch shows as the turn's error. Without
   * it the client derives one.
   */
  contextId?: () => ObservableInput<string>;
  /** The client; default {@link injectA2A}. */
  client?: A2AClient;
  /** The exchanges of each history page {@link A2AConversation.loadEarlier} loads, 1–100. Default 20 (the client's). */
  historyLimit?: number;
}

/** A person's action on a surface, for {@link A2AConversation.act}: `surfaceAction`'s input less the surface. */
export type SurfaceAct = Omit<SurfaceActionInput, 'surface'>;

/** What {@link a2aConversation} returns. */
export interface A2AConversation {
  /**
   * The current turn's view (see `turnState`); `undefined` before the first message or resumed reply.
   * Errors show as `phase: 'error'`.
   */
  readonly view: Signal<TurnView | undefined>;
  /** True while `resume()` is looking for a reply in flight, until one shows in `view` or none is found. */
  readonly resuming: Signal<boolean>;
  /**
   * Runs a turn for this message, cancelling the one still running (its task gets a CancelTask).
   * On the server (`PLATFORM_ID` is `'server'`) it does nothing: no turn runs during SSR.
   */
  send(text: string, extra?: Pick<TurnInput, 'files' | 'data'>): void;
  /**
   * The question the current turn ended on (`input-required` or `auth-required`: the `end` event's
   * interrupt): its kind, text, task, the agent's requests for input (`elicitations`) and, from an
   * A2A 1.1 agent, the task's generation. Set with the view of that end (a resumed question's too);
   * `undefined` while a turn runs and after any other end or an error. Answer it with `answer`.
   */
  readonly interrupt: Signal<Interrupt | undefined>;
  /**
   * Answers `question` (an {@link A2AConversation.interrupt} value) with `reply`: runs a turn with the
   * fields of `answerTo(question, reply)` as `send` runs one (the running turn, if any, is cancelled).
   * The answer continues the question's task, names the requests for input it answers (the open ones
   * unless `reply` names its own) and, when the agent keeps generations (A2A 1.1), goes only while the
   * task is still at the question: an answer to a question answered already (from another tab, another
   * device) ends the turn with a `conflict` error, nothing sent to the task (see `answeredAlready`).
   * Against a 1.0 or 0.3 agent it is an ordinary message on the task, and a second answer is not refused.
   * On the server (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  answer(question: Interrupt, reply: InterruptReply): void;
  /**
   * True when the current turn is an answer refused because its question was answered already (the
   * view's error is a `conflict`): say so (`ANSWERED_ALREADY`), not a failure to retry.
   */
  readonly answeredAlready: Signal<boolean>;
  /**
   * The agent's A2UI surfaces, drawn by the thread's past and this conversation's turns (and a resumed
   * one), each as its messages left it (`SurfaceView`: replay `messages` into a renderer's message
   * processor). The past's first: the surfaces of every exchange {@link A2AConversation.loadEarlier} loaded
   * (`HistoryExchange.surfaces`, oldest exchange first, each applied to what the earlier ones drew, so a
   * form answered in a later exchange stands answered), in the order first drawn; then those only the
   * turns drew, oldest first. A turn's `surface` events apply to what came before, so the turn that answers
   * an action updates the surface an earlier turn, or an exchange of the past, created; a creation starts
   * it over in its place; a `deleteSurface` removes it (and an earlier page of the past does not bring it
   * back). At most {@link MAX_CONVERSATION_SURFACES} (the oldest forgotten). Checked before they come here:
   * see `surfacesRefused` (the past's were checked as a live turn's, their refusals not kept).
   */
  readonly surfaces: Signal<readonly SurfaceView[]>;
  /**
   * The A2UI messages the current turn refused (a URL a browser runs, too deep, too large, malformed, too
   * many surfaces or components), each its `reason` and a sentence, never the content; the first
   * {@link MAX_TURN_REFUSALS}. Empty again when the next turn starts. Say so on the page.
   */
  readonly surfacesRefused: Signal<readonly SurfaceRefusedEvent[]>;
  /**
   * Sends a person's action on `surface` (one of `surfaces()`): runs a turn with the fields of
   * `surfaceAction({ surface, ...action })` as `send` runs one (the running turn, if any, is cancelled);
   * the agent's answer updates the surface through `surfaces`. Send it in this conversation only (its
   * agent drew the surface). A surface never created in what the conversation saw ends the turn with an
   * `input` error, nothing sent. On the server (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  act(surface: SurfaceView, action: SurfaceAct): void;
  /** Cancels the running turn, if any (its task gets a CancelTask); the view ends with outcome `canceled`. */
  cancel(): void;
  /**
   * Shows the thread's reply in flight, if there is one: call it once at start (a component's
   * constructor), so a page reloaded mid-reply picks the reply up again (`client.resume` with the
   * same contextId function as a turn). A running task becomes the current turn: `view` brings what
   * the agent already said, then the rest live, and `cancel()` or a `send` cancels it like any turn.
   * A question the agent is waiting on (`input-required`, `auth-required`) shows as a turn that
   * ended so, and the next `send` answers it in its task.
   *
   * Best effort: nothing unfinished (outcome `none`), or a failure to look (the agent down, a v0.3
   * agent without `ListTasks`, a failed contextId fetch), leaves `view` as it was. A `send` while it
   * looks replaces it. On the server (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  resume(): void;
  /**
   * The thread's past, as {@link A2AConversation.loadEarlier} loaded it from the agent (`client.history`):
   * its exchanges, oldest first, to show above the conversation's own turns. Nothing doubled: an
   * exchange whose task this conversation showed in `view` (the reply in flight that `resume()`
   * follows, which the agent lists too, or a question a `send` answered) is left out, as it shows
   * through `view`; and while `resuming()` is true it is empty, so the reply in flight never shows twice.
   * An exchange's A2UI surfaces (`surfaces`, as they stood when it was listed) come through `surfaces()`
   * too, with the later turns' answers applied, for `act()`.
   */
  readonly history: Signal<readonly HistoryExchange[]>;
  /** True when the agent has exchanges before the oldest in `history`: show a "Load earlier" button. */
  readonly hasEarlier: Signal<boolean>;
  /** True while a history page loads. */
  readonly loadingHistory: Signal<boolean>;
  /**
   * Why the last history page failed, until the next load: `kind: 'unsupported'` for an agent that lists
   * no tasks (v0.3: it shows no history), or the agent's or the contextId fetch's failure. Never thrown.
   */
  readonly historyError: Signal<A2AError | undefined>;
  /**
   * Loads a page of the thread's past into `history`: on the first call the newest `historyLimit`
   * exchanges (call it once at start, beside `resume()`), then on each call the page before the oldest
   * one loaded ("Load earlier", while `hasEarlier()`). One load at a time: a call while a page loads,
   * or after the oldest page, does nothing. The contextId comes from the `contextId` option, as a
   * turn's does. A failure leaves `history` as it was (see `historyError`). On the server
   * (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  loadEarlier(): void;
}
