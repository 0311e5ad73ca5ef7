import { asyncScheduler, from, Observable, type ObservableInput, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';

/** One request to a chat platform: post a new message, edit one posted before, or delete the last one (by index in the reply). */
export interface PlatformEdit {
  /** `post` a new message, `edit` the one at `message`, or `delete` it (a correction made the reply shorter). */
  kind: 'post' | 'edit' | 'delete';
  /** The message's index among the reply's messages (0 for the first). */
  message: number;
  /** The message's whole text after this request (empty for `delete`). */
  text: string;
}

/** A chat platform's limits, and how a request reaches it. */
export interface PlatformLimits {
  /** The longest message, in characters (Slack about 40,000, Discord 2,000, Telegram 4,096). */
  maxLength: number;
  /** Requests (posts, edits, deletes) per second at most, over the reply's messages (Slack: about one). */
  perSecond: number;
  /**
   * Makes one request (the platform's API or SDK call): its completion says the platform took it, its
   * error fails the stream. The next request waits for it, so a slow or rate-limited platform (a 429
   * waited out here) is sent fewer, fresher edits rather than a backlog of stale ones.
   */
  send: (edit: PlatformEdit) => ObservableInput<unknown>;
  /** The scheduler of the pacing (tests pass a virtual one). Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

/**
 * A reply as it grows (each value the whole reply so far, e.g. `turnState()`'s `reply`; complete at
 * its end) sent to a chat platform: the first text posts a message, later text edits it, one request
 * at a time and one per `1 / perSecond` seconds at most, each carrying the latest text (a fast reply
 * skips the texts in between; nothing is sent that would show nothing new). Past `maxLength`
 * characters a message keeps its part (cut at the last line break, else the last space, in its
 * second half; else at the limit) and the rest goes on in a new message. Emits each request once the
 * platform took it; when the reply completes, the requests still owed go out at the same pace and the
 * stream completes: then every message holds exactly its part of the final reply. A reply that
 * replaces its text (a correction) edits the messages it changed and deletes any left over.
 */
export function platformEdits(limits: PlatformLimits): OperatorFunction<string, PlatformEdit> {
  const { maxLength, perSecond, send } = limits;
  if (!Number.isInteger(maxLength) || maxLength < 1 || !(perSecond > 0)) {
    throw new RangeError('platformEdits: maxLength must be a positive whole number and perSecond a positive number');
  }
  const scheduler = limits.scheduler ?? asyncScheduler;
  const gapMs = 1000 / perSecond;
  return (replies) =>
    new Observable<PlatformEdit>((subscriber) => {
      /** What each message shows now. */
      const shown: string[] = [];
      let wanted: string[] = [];
      let done = false;
      /** When the next request may go. */
      let nextAt = -Infinity;
      /** The wait for the next request's turn, or the request on its way. */
      let busy: Subscription | undefined;
      const pump = (): void => {
        busy = undefined;
        const edit = nextEdit(shown, wanted);
        if (edit === undefined) {
          if (done) subscriber.complete();
          return;
        }
        const wait = nextAt - scheduler.now();
        if (wait > 0) {
          busy = scheduler.schedule(pump, wait);
          return;
        }
        nextAt = scheduler.now() + gapMs;
        let taken = false;
        const request = from(send(edit)).subscribe({
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            taken = true;
            if (edit.kind === 'delete') shown.pop();
            else shown[edit.message] = edit.text;
            subscriber.next(edit);
            if (!subscriber.closed) pump();
          },
        });
        // A platform that took the request at once has already pumped on: what it set stands.
        if (!taken) busy = request;
      };
      const source = replies.subscribe({
        next: (reply) => {
          wanted = splitReply(reply, maxLength);
          if (busy === undefined) pump();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          done = true;
          if (busy === undefined) pump();
        },
      });
      return () => {
        source.unsubscribe();
        busy?.unsubscribe();
      };
    });
}

/** The request that brings the platform's messages one step closer to the parts wanted: the first that differs, in order. */
function nextEdit(shown: readonly string[], wanted: readonly string[]): PlatformEdit | undefined {
  const index = wanted.findIndex((part, i) => shown[i] !== part);
  if (index >= 0) return { kind: index < shown.length ? 'edit' : 'post', message: index, text: wanted[index]! };
  if (shown.length > wanted.length) return { kind: 'delete', message: shown.length - 1, text: '' };
  return undefined;
}

/**
 * A reply cut into messages of at most `maxLength` characters: each cut at the last line break of
 * the message's second half, else its last space, else at the limit. A cut depends only on the text
 * before it, so a growing reply never moves an earlier cut. An empty reply is no message.
 */
export function splitReply(reply: string, maxLength: number): string[] {
  const parts: string[] = [];
  let rest = reply;
  while (rest.length > maxLength) {
    const window = rest.slice(0, maxLength + 1);
    const half = Math.floor(maxLength / 2);
    const newline = window.lastIndexOf('\n', maxLength - 1);
    const space = window.lastIndexOf(' ', maxLength - 1);
    const cut = newline >= half ? newline + 1 : space >= half ? space + 1 : maxLength;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== '') parts.push(rest);
  return parts;
}
