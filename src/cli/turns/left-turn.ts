import { DEFAULT_POLICY, type TurnEvent } from '../../node/index.js';
import { DEFAULT_HANDLE } from '../core/options.js';
import { shellQuote } from '../output/shell-quote.js';

/**
 * What a turn had told when a4h left it (Ctrl-C, `--timeout`, a chat's Ctrl-C): the message it sent
 * (its `start` event's `messageId`, and when) and the task the agent named, if it named one. Feed it
 * each event of the turn.
 */
export class TurnTrail {
  /** The id of the message the turn sent (absent on a resume). */
  messageId: string | undefined;
  /** When the turn sent it (epoch milliseconds), as `a4h resume --sent-at` takes it. */
  sentAt: number | undefined;
  /** The task the agent named, if it named one. */
  taskId: string | undefined;
  /** Whether the message was handed to the agent's transport (false: it never left); undefined when unknown. */
  messageWent: boolean | undefined;

  see(event: TurnEvent): void {
    if (event.type === 'start' && event.messageId !== undefined) {
      this.messageId = event.messageId;
      this.sentAt = Date.now();
    } else if (event.type === 'task') this.taskId = event.taskId;
  }
}

/** Where the message went: the agent as the user named it, and the thread it went on, when it went on one. */
export interface SentTo {
  agent: string;
  /** `--thread` (and `--handle`): then `a4h resume --message` can look for it. */
  thread?: { key: string; handle?: string | undefined } | undefined;
}

/** What a left turn says: what happened to the agent's task (its message), and the next step (null when none). */
export interface LeftNote {
  message: string;
  hint: string | null;
}

/**
 * The truth about a turn a4h left before its end. A task the agent named got `CancelTask` (the ladder
 * sends it at once when a turn is left). Before a task was named there was nothing to cancel: the
 * agent may still act on the message; the ladder reads the request on for a while and cancels a task
 * named in that time, then (on a thread: the message has a contextId) looks the task up by the message and
 * cancels it, best effort. With a thread, `a4h resume --message` finds out what became of it.
 */
export function leftNote(trail: TurnTrail, to: SentTo, verb = 'cancelled'): LeftNote {
  if (trail.taskId !== undefined) {
    return {
      message: `${verb}: CancelTask was sent for task ${trail.taskId}`,
      hint: `see what the agent made of it: a4h task get ${shellQuote(trail.taskId)} -a ${shellQuote(to.agent)}`,
    };
  }
  if (trail.messageId === undefined) return { message: `${verb} before a task was found: nothing was cancelled`, hint: null };
  if (trail.messageWent === false) return { message: `${verb} before the message was sent: nothing reached the agent`, hint: null };
  const seconds = Math.round(DEFAULT_POLICY.cancelTimeoutMs / 1000);
  // On a thread the ladder then looks the task up by the message (ListTasks, A2A 1.0) and cancels it: best effort.
  const lookup =
    to.thread === undefined ? '' : '; then, on an agent that lists its tasks, the task that carries the message is looked up and cancelled';
  const message =
    `${verb} before the agent named a task: there was nothing to cancel (a task it names in the next ${seconds} s is cancelled${lookup}), ` +
    `and the agent may still act on message ${trail.messageId}`;
  if (to.thread === undefined) {
    return {
      message,
      hint: 'a4h cannot look for it: the message went without --thread (with one, a4h resume --message finds it)',
    };
  }
  const handle = to.thread.handle !== undefined && to.thread.handle !== DEFAULT_HANDLE ? ` --handle ${shellQuote(to.thread.handle)}` : '';
  const sentAt = trail.sentAt === undefined ? '' : ` --sent-at ${trail.sentAt}`;
  return {
    message,
    hint: `find out with: a4h resume ${shellQuote(to.agent)} --thread ${shellQuote(to.thread.key)}${handle} --message ${shellQuote(trail.messageId)}${sentAt}`,
  };
}
