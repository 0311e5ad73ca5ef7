import type { AgentEvent, AgentMessage, Artifact, Task } from '../port/types.js';
import type { Usage, UsageEvent, UsageScope } from '../port/usage.js';
import { isPartial } from './parts.js';
import { readUsage, type UsageRead } from './usage-read.js';

/** Metadata as sent. */
type Meta = Record<string, unknown>;

/** Where usage events go: any array of events. */
type UsageOut = { push(event: UsageEvent): unknown };

/** The most reports a turn keeps (messages and artifacts that reported); past it a new one is ignored. */
const MAX_REPORTS = 1_000;

/** One carrier's latest report, and its JSON to know it again. */
interface Kept {
  usage: Usage;
  json: string;
}

/**
 * A turn's usage, as its agent reports it (docs/usage.md). Each report belongs to what carried it: a
 * message (by its messageId, else its content), an artifact (by its artifactId); a carrier's latest report
 * replaces its earlier one, so a report seen again (a snapshot, the history, a resubscribe, a repeated
 * chunk) counts once, and a report that grows (an artifact's chunks) counts as it last was. The total is the
 * task's own total when the agent gives one (`metadata.usage` on the task or on a status or artifact update
 * event, which the SDKs merge into the task's), else the sum of the carriers' reports; ADK's key on a task
 * (the last model call's, merged there by the agent's SDK) stands for the total only while nothing else
 * reported.
 */
export class UsageLedger {
  private readonly reports = new Map<string, Kept>();
  private taskTotal: Kept | undefined;
  private taskCall: Kept | undefined;

  /**
   * `wholeHistory`: a task's history read whole (a listed task, every exchange of it); else only after the
   * person's last message (the turn's own exchange).
   */
  constructor(private readonly wholeHistory = false) {}

  /** The usage one agent event reports, as events for what is new. Never throws on what the agent sent. */
  read(signal: AgentEvent, out: UsageOut): void {
    switch (signal.kind) {
      case 'task':
        return this.task(signal.task, out);
      case 'message':
        return this.message(signal.message, undefined, out);
      case 'status': {
        const message = signal.status.message;
        // A partial (streamed delta) event's report comes again, whole, on the event that closes it.
        if (isPartial(signal.metadata, message?.metadata)) return;
        this.message(message, undefined, out);
        return this.event(signal.metadata, message?.metadata, (read) => this.message(message, read, out), out);
      }
      case 'artifact': {
        const { artifact } = signal;
        if (isPartial(signal.metadata, artifact.metadata)) return;
        this.artifact(artifact, undefined, out);
        return this.event(signal.metadata, artifact.metadata, (read) => this.artifact(artifact, read, out), out);
      }
      case 'alive':
    }
  }

  /**
   * An update event's own report: `usage` is the task's total (the SDKs merge an event's metadata into the
   * task's); ADK's is its message's or artifact's (`carried`), unless that carries a report of its own.
   */
  private event(metadata: Meta | undefined, carrier: Meta | undefined, carried: (read: UsageRead) => void, out: UsageOut): void {
    const read = readUsage(metadata);
    if (read?.convention === 'usage') this.taskReport(read, out);
    else if (read !== undefined && readUsage(carrier) === undefined) carried(read);
  }

  /** The turn's total, when the agent reported anything (a new object each call). */
  total(): Usage | undefined {
    return this.current();
  }

  /** The task's own total: it stands for the turn's. */
  private taskReport(read: UsageRead, out: UsageOut): void {
    const kept = keep(read.usage);
    if (kept.json === this.taskTotal?.json) return;
    this.taskTotal = kept;
    out.push(event('task', read.usage, this.current()!));
  }

  private task(task: Task, out: UsageOut): void {
    const history = task.history ?? [];
    let from = history.length;
    while (from > 0 && (this.wholeHistory || history[from - 1]!.role !== 'user')) from--;
    for (let i = from; i < history.length; i++) this.message(history[i], undefined, out);
    this.message(task.status.message, undefined, out);
    for (const artifact of task.artifacts) if (!isPartial(artifact.metadata)) this.artifact(artifact, undefined, out);
    const read = readUsage(task.metadata);
    if (read?.convention === 'usage') return this.taskReport(read, out);
    if (read === undefined || this.reports.size > 0 || this.taskTotal !== undefined) return;
    const kept = keep(read.usage);
    if (kept.json === this.taskCall?.json) return;
    this.taskCall = kept;
    out.push(event('task', read.usage, this.current()!));
  }

  /**
   * A message's report (its own metadata's, or `read` from its event's; without a message, known by its
   * content): the agent's messages only.
   */
  private message(message: AgentMessage | undefined, read: UsageRead | undefined, out: UsageOut): void {
    if (message !== undefined && message.role !== 'agent') return;
    const found = read ?? readUsage(message?.metadata);
    if (found === undefined) return;
    const id = message?.messageId;
    this.report('message', id ? `m\u0000${id}` : undefined, found.usage, out);
  }

  /** An artifact's report (its own metadata's, or `read` from its event's). */
  private artifact(artifact: Artifact, read: UsageRead | undefined, out: UsageOut): void {
    const found = read ?? readUsage(artifact.metadata);
    if (found !== undefined) this.report('artifact', `a\u0000${artifact.artifactId}`, found.usage, out);
  }

  /** A carrier's report: kept and told when it is new or changed. `carrier` undefined: known by its content. */
  private report(scope: UsageScope, carrier: string | undefined, usage: Usage, out: UsageOut): void {
    const kept = keep(usage);
    const key = carrier ?? `${scope}\u0000#${kept.json}`;
    const known = this.reports.get(key);
    if (known?.json === kept.json) return;
    if (known === undefined && this.reports.size >= MAX_REPORTS) return;
    this.reports.set(key, kept);
    out.push(event(scope, usage, this.current()!));
  }

  private current(): Usage | undefined {
    if (this.taskTotal !== undefined) return copy(this.taskTotal.usage);
    if (this.reports.size === 0) return this.taskCall === undefined ? undefined : copy(this.taskCall.usage);
    return sumUsage([...this.reports.values()].map((kept) => kept.usage));
  }
}

function keep(usage: Usage): Kept {
  return { usage, json: JSON.stringify(usage) };
}

function event(scope: UsageScope, usage: Usage, total: Usage): UsageEvent {
  return { type: 'usage', scope, usage: copy(usage), total };
}

/** A report as a new object (its `reported` shared: nothing mutates it). */
function copy(usage: Usage): Usage {
  return usage.cost === undefined ? { ...usage } : { ...usage, cost: { ...usage.cost } };
}

/**
 * The sum of usage reports, as a turn totals its own (a thread's turns summed the same way): each token
 * field the sum of the reports that gave it (absent when none did); the cost summed when every cost is in
 * one currency (or none names one), else absent. One report is itself (a copy); none is `{}`.
 */
export function sumUsage(reports: readonly Usage[]): Usage {
  if (reports.length === 1) return copy(reports[0]!);
  const total: Usage = {};
  for (const field of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
    for (const report of reports) if (report[field] !== undefined) total[field] = (total[field] ?? 0) + report[field];
  }
  const costs = reports.flatMap((report) => (report.cost === undefined ? [] : [report.cost]));
  const currency = costs[0]?.currency;
  if (costs.length > 0 && costs.every((cost) => cost.currency === currency)) {
    // Rounded to a billionth: 0.1 + 0.2 is 0.3.
    const amount = Math.round(costs.reduce((all, cost) => all + cost.amount, 0) * 1e9) / 1e9;
    total.cost = currency === undefined ? { amount } : { amount, currency };
  }
  return total;
}
