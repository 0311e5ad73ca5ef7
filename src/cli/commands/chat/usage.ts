import { sumUsage, type TurnEvent, type Usage } from '../../../node/index.js';
import { usageText } from '../../output/usage-text.js';

/**
 * What `/usage` says: the last turn's usage (its `end.usage`, or, for a turn that failed after a report, the
 * last running total it saw) and the sum of this chat's turns, summed as a turn sums its own reports
 * (`sumUsage`: each field over the turns that gave it; the cost only while every cost is in one currency).
 */
export class ChatUsage {
  /** The turns that reported or ended (a resume that found nothing is none). */
  private turns = 0;
  private counted = false;
  /** The running turn's (or the last turn's) usage; undefined when it reported none. */
  private current: Usage | undefined;
  /** The usage of each turn before the current one that reported any (a chat's turns: a person's pace). */
  private readonly before: Usage[] = [];

  /** Follows a turn's events: its start, its usage events, its end. */
  see(event: TurnEvent): void {
    if (event.type === 'start') {
      this.settle();
      this.counted = false;
      return;
    }
    if (event.type !== 'usage' && event.type !== 'end') return;
    // A resume that found nothing to follow ends `none`: no turn.
    if (event.type === 'end' && event.outcome === 'none' && !this.counted) return;
    this.current = event.type === 'usage' ? event.total : event.usage;
    if (!this.counted) this.turns++;
    this.counted = true;
  }

  /** The lines `/usage` prints. */
  text(): string {
    const all = this.current === undefined ? this.before : [...this.before, this.current];
    if (all.length === 0) return `the agent reported no usage${this.turns === 0 ? ' (no turn yet)' : ''}\n`;
    const last = this.current === undefined ? 'the agent reported no usage' : usageText(this.current);
    const chat = usageText(sumUsage(all)) || 'no figure in common';
    return `last turn: ${last}\nthis chat: ${chat} (${all.length} of ${this.turns} ${this.turns === 1 ? 'turn' : 'turns'} reported usage)\n`;
  }

  /** The current turn joins the chat's before the next one starts. */
  private settle(): void {
    if (this.current === undefined) return;
    this.before.push(this.current);
    this.current = undefined;
  }
}
