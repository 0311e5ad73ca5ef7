/**
 * What a thread's second message does while its first reply streams: `queue` (it is sent when the
 * turns ahead of it end), `supersede` (the turns ahead end, their tasks cancelled, and it is sent at
 * once) or `parallel` (it is sent at once beside them).
 */
export type SecondMessage = 'queue' | 'supersede' | 'parallel';

/** A message's turn in its thread's lane. */
export interface LaneEntry {
  /** It runs (sends its message); set by `start`. */
  readonly started: boolean;
  /** Runs it. */
  start(): void;
  /** Ends it for a newer message of its thread (its task cancelled). */
  supersede(): void;
}

/**
 * The message turns of each thread, in the order they came, so a thread's policy on a second message
 * can hold one back or end those ahead of it. An entry stays in its lane from `enter` until `leave`
 * (its end, however it ends); a lane is dropped when empty, so the map holds only running and waiting
 * turns. Per process: replicas do not share lanes.
 */
export class ThreadLanes {
  private readonly lanes = new Map<string, LaneEntry[]>();

  /** Puts `entry` in `key`'s lane by `rule`: started now, or (`queue`) once every turn ahead of it left. */
  enter(key: string, rule: SecondMessage, entry: LaneEntry): void {
    if (rule === 'parallel') return entry.start();
    // A superseded turn leaves its lane as it ends (synchronously, in its teardown).
    if (rule === 'supersede') for (const ahead of [...(this.lanes.get(key) ?? [])]) ahead.supersede();
    const lane = this.lanes.get(key) ?? [];
    lane.push(entry);
    this.lanes.set(key, lane);
    if (lane[0] === entry) entry.start();
  }

  /** Takes `entry` out of `key`'s lane; the next one waiting there starts when it is now first. */
  leave(key: string, entry: LaneEntry): void {
    const lane = this.lanes.get(key);
    const index = lane?.indexOf(entry) ?? -1;
    if (lane === undefined || index < 0) return;
    lane.splice(index, 1);
    if (lane.length === 0) this.lanes.delete(key);
    else if (index === 0 && !lane[0]!.started) lane[0]!.start();
  }
}
