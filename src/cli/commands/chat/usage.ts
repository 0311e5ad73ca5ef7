import type { TurnEvent, Usage } from '../../../node/index.js';
import { usageText } from '../../output/usage-text.js';

/** A turn's usage as the chat keeps it: its numbers, no `reported`. */
type Numbers = Omit<Usage, 'reported'>;

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;

/**
 * What `/usage` says: the last turn's usage (its `end.usage`, or, for a turn that failed after a report, the
 * last running total it saw) and the sum of this chat's turns. The sum adds each field over the turns that
 * gave it; the cost only while every cost is in one currency (or none names one), else it is left out.
 */
export class ChatUsage {
  /** The turns that reported or ended (a resume that found nothing is none). */
  private turns = 0;
  private counted = false;
  private reported = 0;
  /** The running turn's (or the last turn's) usage; undefined when it reported none. */
  private current: Usage | undefined;
  /** The turns before the current one, summed; undefined while none reported. */
  private before: Numbers | undefined;
  private mixed = false;

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
    const sum = this.sum();
    if (sum === undefined) return `the agent reported no usage${this.turns === 0 ? ' (no turn yet)' : ''}\n`;
    const last = this.current === undefined ? 'the agent reported no usage' : usageText(this.current);
    const reported = this.reported + (this.current === undefined ? 0 : 1);
    const chat = usageText(sum) || 'no figure in common';
    return `last turn: ${last}\nthis chat: ${chat} (${reported} of ${this.turns} ${this.turns === 1 ? 'turn' : 'turns'} reported usage)\n`;
  }

  /** The chat's sum, the current turn included; undefined when no turn reported. */
  private sum(): Numbers | undefined {
    return this.current === undefined ? this.before : add(this.before, this.current, this.mixed).sum;
  }

  /** The current turn joins the sum before the next one starts. */
  private settle(): void {
    if (this.current === undefined) return;
    const { sum, mixed } = add(this.before, this.current, this.mixed);
    this.before = sum;
    this.mixed = mixed;
    this.reported++;
    this.current = undefined;
  }
}

/** `sum` plus `usage`, field by field; `mixed` once two costs were in different currencies (the cost then stays out). */
function add(sum: Numbers | undefined, usage: Usage, mixed: boolean): { sum: Numbers; mixed: boolean } {
  const out: Numbers = {};
  for (const key of COUNTS) {
    const a = sum?.[key];
    const b = usage[key];
    if (a !== undefined || b !== undefined) out[key] = (a ?? 0) + (b ?? 0);
  }
  const had = sum?.cost;
  const cost = usage.cost;
  const clash = mixed || (had !== undefined && cost !== undefined && had.currency !== cost.currency);
  if (!clash && (had !== undefined || cost !== undefined)) {
    const amount = Math.round(((had?.amount ?? 0) + (cost?.amount ?? 0)) * 1e9) / 1e9;
    const currency = had?.currency ?? cost?.currency;
    out.cost = currency === undefined ? { amount } : { amount, currency };
  }
  return { sum: out, mixed: clash };
}
