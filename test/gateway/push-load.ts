import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
/**
 * Long tasks followed by push under load while replicas die: clients sending back to back through
 * haproxy to replicas started with `--push`, a killer meanwhile, and the figures counted against the
 * agent's own record (its tasks and the messages each carries) and against what reached it (every
 * request's JSON-RPC method: a stream or a resubscribe would show there). For push-kills.test.ts and
 * push.chaos.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from '../../examples/gateway/cluster.mjs';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks, ledger } from './agent-truth.js';
import type { StartedRig } from './rig.js';

/** What a run did and what the agent's record says of it. */
export interface PushLoadFigures {
  /** Messages sent (each once by its client, whatever the resends). */
  messages: number;
  /** Replicas killed. */
  kills: number;
  lost: number;
  doubled: number;
  orphaned: number;
  /** Turns that did not end completed, or whose reply differs from the agent's or from their `end`. */
  truncated: number;
  /** Turns whose shown reply had to be replaced (a `text` event with `replace`): what the person saw live was wrong. */
  replaced: number;
  /** Messages sent again because the agent never got them. */
  resent: number;
  /** Streams that broke (a person's replica died) and were resumed on another. */
  broken: number;
  /** Turns whose person was moved to another replica at least once. */
  moved: number;
  /** ms from the last event before a break to the first after: median and 99th percentile. */
  recoveryP50: number;
  recoveryP99: number;
  /** Requests that reached the agent, by method (`SendMessage`, `GetTask`, `CreateTaskPushNotificationConfig`, …). */
  atAgent: Record<string, number>;
  /** What the truncated turns, and those whose reply was replaced, were: their end or error, their replicas, their reply's length against the agent's. */
  oddTurns: Array<{
    thread: string;
    messageId: string;
    end?: string;
    taskId?: string;
    error?: string;
    replicas: string[];
    reply: string;
    agent?: string;
    endText?: string;
    /** The agent's tasks of the thread: id, the messages each carries, its reply. */
    tasks: Array<{ id: string; messageIds: string[]; reply: string }>;
    /** The events the client got, each as `<id> <type> [text]`. */
    events: string[];
  }>;
  /** Pushes a replica took with no turn there to show them to (another replica's, or after the turn's end), summed from the replicas' logs. */
  unclaimed: number;
}

/** How a run goes. */
export interface PushLoadOptions {
  rig: StartedRig;
  secret: string;
  user: string;
  /** Thread names are `<prefix>-<client>`. */
  prefix: string;
  clients: number;
  /** Clients start new messages for this long; the run ends when their last turns do. */
  runMs: number;
  /** The killer, started with the clients: resolves to how many replicas it killed. */
  killer: (cluster: Cluster, until: number) => Promise<number>;
  /** The text of message `n` of a thread. */
  text: (n: number, thread: string) => string;
  /** The methods of the requests that reached the agent (the rig's `onRequest`), appended to as they come. */
  toAgent: readonly string[];
  /** The replicas' log lines (the cluster's `log`), appended to as they come. */
  gatewayLog: readonly string[];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Runs the clients and the killer, then counts. */
export async function pushLoad(options: PushLoadOptions): Promise<PushLoadFigures> {
  const { rig, clients, runMs } = options;
  const [requests, lines] = [options.toAgent.length, options.gatewayLog.length];
  const until = Date.now() + runMs;
  const sent: Array<{ thread: string; followed: Followed; events: string[] }> = [];
  const loops = Array.from({ length: clients }, async (_, i) => {
    const thread = `${options.prefix}-${i}`;
    await sleep((i * 1_000) / clients); // spread the first messages over a second
    for (let n = 0; Date.now() < until; n++) {
      const events: string[] = [];
      const onEvent = (event: { type: string; [key: string]: unknown }, id: string | undefined) =>
        events.push(
          `${id ?? '-'} ${event.type}${event.type === 'text' ? ` ${event.replace ? 'replace ' : ''}${JSON.stringify(event.text)}` : ''}`,
        );
      const followed = await followTurn({ gateway: rig.cluster.url, token: rig.token, thread, text: options.text(n, thread), onEvent });
      sent.push({ thread, followed, events });
    }
  });
  const [kills] = await Promise.all([options.killer(rig.cluster, until), ...loops]);

  const book = { lost: 0, doubled: 0, orphaned: 0, truncated: 0 };
  const oddTurns: PushLoadFigures['oddTurns'] = [];
  for (let i = 0; i < clients; i++) {
    const thread = `${options.prefix}-${i}`;
    const mine = sent.filter((t) => t.thread === thread);
    const tasks = await agentTasks(rig.agent.url, await deriveContextId(options.secret, options.user, thread));
    const count = ledger(
      mine.map((t) => t.followed.messageId!),
      tasks,
    );
    book.lost += count.lost.length;
    book.doubled += count.doubled.length;
    book.orphaned += count.orphaned.length;
    for (const { followed, events } of mine) {
      const task = tasks.find((t) => t.id === followed.end?.taskId);
      const truncated = followed.end?.outcome !== 'completed' || task?.reply !== followed.reply || followed.reply !== followed.end.text;
      if (truncated) book.truncated++;
      if (truncated || events.some((event) => / text replace /.test(event))) {
        oddTurns.push({
          thread,
          messageId: followed.messageId!,
          ...(followed.end ? { end: followed.end.outcome, endText: followed.end.text, taskId: followed.end.taskId } : {}),
          ...(followed.error ? { error: `${followed.error.kind}: ${followed.error.message}` } : {}),
          replicas: followed.replicas,
          reply: followed.reply,
          ...(task ? { agent: task.reply } : {}),
          tasks: tasks.map((t) => ({ id: t.id, messageIds: t.messageIds, reply: t.reply })),
          events,
        });
      }
    }
  }
  const atAgent: Record<string, number> = {};
  for (const method of options.toAgent.slice(requests)) atAgent[method] = (atAgent[method] ?? 0) + 1;
  const recoveries = sent.flatMap((t) => t.followed.recoveries);
  return {
    messages: sent.length,
    kills,
    ...book,
    replaced: sent.filter((t) => t.events.some((event) => / text replace /.test(event))).length,
    resent: sent.reduce((n, t) => n + t.followed.resent, 0),
    broken: recoveries.length,
    moved: sent.filter((t) => new Set(t.followed.replicas).size > 1).length,
    recoveryP50: percentile(recoveries, 50),
    recoveryP99: percentile(recoveries, 99),
    atAgent,
    oddTurns,
    unclaimed: options.gatewayLog.slice(lines).filter((line) => line.includes('push unclaimed')).length,
  };
}

/**
 * Every replica killed once (`kill -9`), in turn, `everyMs` apart, each started again at once (haproxy
 * routes to it once its check passes) before the next is killed.
 */
export async function killEachOnce(cluster: Cluster, everyMs: number): Promise<number> {
  let kills = 0;
  for (const name of cluster.names) {
    await sleep(everyMs);
    await cluster.kill(name);
    kills += 1;
    await cluster.restart(name);
  }
  return kills;
}

/** The run's figures on the log (without the odd turns) and whole in `test-output/<file>`, for a person to read. */
export async function reportFigures(name: string, file: string, figures: PushLoadFigures): Promise<void> {
  const { oddTurns, ...shown } = figures;
  console.log(`${name}: ${JSON.stringify(shown)}`);
  await mkdir('test-output', { recursive: true });
  await writeFile(join('test-output', file), `${JSON.stringify({ ...shown, oddTurns }, null, 2)}\n`);
}
