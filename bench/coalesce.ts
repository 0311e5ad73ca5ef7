/**
 * Renders a screen can afford: one reply of N chunks through `runTurn` and `turnState()`, with and
 * without `coalesceMs`, into a subscriber that does what a store feeding a screen does with each
 * view (here it serialises the view, `JSON.stringify`, as a store that persists the view or posts
 * it to a worker does: work that grows with the reply). Counted: the views the subscriber receives,
 * the CPU time spent in it, the process's CPU over the whole turn, and the time until the last view.
 * No wire: the port hands over `perTick` chunks every `tickMs` on Node's timers, as a stream's
 * reads would; a subscriber that cannot keep up delays the ticks, as it would delay a socket's reads.
 */
import { performance } from 'node:perf_hooks';
import { Observable, of } from 'rxjs';
import { runTurn, turnState, type A2APort, type AgentEvent, type CardSummary, type TurnView } from 'a4h-a2a';
import { chunkText } from './frames.js';
import { median } from './stats.js';

export const COALESCE_VARIANTS = ['every view', 'coalesced'] as const;
export type CoalesceVariant = (typeof COALESCE_VARIANTS)[number];

/** The reply's shape and the window. */
export interface CoalescePlan {
  /** Chunks in the reply. */
  n: number;
  /** The window of the `coalesced` variant, ms. */
  windowMs: number;
  /** Chunks handed over together… */
  perTick: number;
  /** …every this many ms. */
  tickMs: number;
  /** Measured turns per process (after a warm-up turn of a tenth of the chunks). */
  measured: number;
}

/** The scenario as the full run and `npm run bench:coalesce` run it: 10,000 chunks, 10 a millisecond, a 50-ms window. */
export const COALESCE_PLAN: CoalescePlan = { n: 10_000, windowMs: 50, perTick: 10, tickMs: 1, measured: 3 };

const CARD: CardSummary = { name: 'paced', streaming: true, protocolVersion: '1.0', transport: 'JSONRPC', url: 'http://127.0.0.1:1/' };
const TASK_ID = 'task-1';
const CONTEXT_ID = 'ctx-1';

/** A port whose stream is task, working, `n` chunks (`perTick` every `tickMs`), completed. */
function pacedPort({ n, perTick, tickMs }: CoalescePlan): A2APort {
  const refuse = () => {
    throw new Error('not used by the benchmark');
  };
  return {
    card: () => of(CARD),
    stream: () =>
      new Observable<AgentEvent>((subscriber) => {
        const taskId = TASK_ID;
        const contextId = CONTEXT_ID;
        subscriber.next({ kind: 'task', task: { id: taskId, contextId, status: { state: 'submitted' }, artifacts: [] } });
        subscriber.next({ kind: 'status', taskId, contextId, status: { state: 'working' } });
        let i = 0;
        let timer: NodeJS.Timeout | undefined;
        const tick = (): void => {
          for (const end = Math.min(n, i + perTick); i < end && !subscriber.closed; i++) {
            const artifact = { artifactId: 'out', parts: [{ kind: 'text' as const, text: chunkText(i) }] };
            subscriber.next({ kind: 'artifact', taskId, contextId, artifact, append: i > 0, lastChunk: i === n - 1 });
          }
          if (subscriber.closed) return;
          if (i < n) timer = setTimeout(tick, tickMs);
          else {
            subscriber.next({ kind: 'status', taskId, contextId, status: { state: 'completed' } });
            subscriber.complete();
          }
        };
        timer = setTimeout(tick, tickMs);
        return () => clearTimeout(timer);
      }),
    send: refuse,
    resubscribe: refuse,
    getTask: refuse,
    cancel: (taskId) => of({ id: taskId, contextId: CONTEXT_ID, status: { state: 'canceled' }, artifacts: [] }),
  };
}

interface TurnFigures {
  updates: number;
  subscriberMs: number;
  cpuMs: number;
  wallMs: number;
}

/** One turn into the serialising subscriber; throws unless its last view is the whole, ended reply. */
function oneTurn(port: A2APort, plan: CoalescePlan, variant: CoalesceVariant): Promise<TurnFigures> {
  const options = variant === 'coalesced' ? { coalesceMs: plan.windowMs } : {};
  return new Promise((resolve, reject) => {
    let updates = 0;
    let subscriberMs = 0;
    let bytes = 0;
    let last: TurnView | undefined;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    runTurn(port, { text: 'go', contextId: CONTEXT_ID })
      .pipe(turnState(options))
      .subscribe({
        next: (view) => {
          // CPU, not wall: on a shared machine a wall clock would count the time the process waited for a core.
          const s0 = process.cpuUsage();
          bytes += JSON.stringify(view).length;
          const spent = process.cpuUsage(s0);
          subscriberMs += (spent.user + spent.system) / 1000;
          updates++;
          last = view;
        },
        error: reject,
        complete: () => {
          const used = process.cpuUsage(cpu);
          if (last?.phase !== 'ended' || last.reply.length !== 16 * plan.n || bytes === 0)
            return reject(new Error(`the last view is not the whole reply: ${last?.phase}, ${last?.reply.length} chars`));
          resolve({ updates, subscriberMs, cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - t0 });
        },
      });
  });
}

/** A warm-up turn of a tenth of the chunks, then `measured` turns; the medians. */
export async function coalesce(variant: CoalesceVariant, { n, windowMs, perTick, tickMs, measured }: CoalescePlan) {
  const plan = { n, windowMs, perTick, tickMs, measured };
  const warm = { ...plan, n: Math.ceil(n / 10) };
  await oneTurn(pacedPort(warm), warm, variant);
  const port = pacedPort(plan);
  const runs: TurnFigures[] = [];
  for (let i = 0; i < plan.measured; i++) runs.push(await oneTurn(port, plan, variant));
  return {
    variant,
    ...plan,
    updates: median(runs.map((r) => r.updates)),
    subscriberMs: median(runs.map((r) => r.subscriberMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    wallMs: median(runs.map((r) => r.wallMs)),
  };
}
