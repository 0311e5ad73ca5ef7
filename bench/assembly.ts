/**
 * Reply assembly without the wire: `runTurn` over a port whose stream hands over prebuilt agent
 * events synchronously (task, working, N chunks, completed), so what is timed is the ladder (the
 * tracker, the watchdogs, the renderer) and, in the `view` variant, the store-facing `turnState()`
 * fold. Time per chunk must not grow with N.
 */
import { performance } from 'node:perf_hooks';
import { last, lastValueFrom, Observable, of } from 'rxjs';
import { createA2A, runTurn, turnState, type A2APort, type AgentEvent, type CardSummary, type TurnEvent } from 'a4h-a2a';
import { chunkText } from './frames.js';
import { BENCH_SECRET } from './drivers/types.js';

export const ASSEMBLY_VARIANTS = ['ladder', 'view'] as const;
export type AssemblyVariant = (typeof ASSEMBLY_VARIANTS)[number];

const CARD: CardSummary = { name: 'synthetic', streaming: true, protocolVersion: '1.0', transport: 'JSONRPC', url: 'http://127.0.0.1:1/' };

const TASK_ID = 'task-1';
const CONTEXT_ID = 'ctx-1';

/**
 * A port whose stream makes its events one at a time as it hands them over (as a wire would; a
 * prebuilt array of 100,000 events would weigh on the GC and blur the figure): task, working,
 * `n` chunks, then completed, or, with `hold`, nothing after the first chunk.
 */
function syntheticPort(n: number, hold = false): A2APort {
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
        for (let i = 0; i < n && !subscriber.closed; i++) {
          subscriber.next({
            kind: 'artifact',
            taskId,
            contextId,
            artifact: { artifactId: 'out', parts: [{ kind: 'text', text: chunkText(i) }] },
            append: i > 0,
            lastChunk: i === n - 1,
          });
          if (hold) return;
        }
        if (!subscriber.closed) subscriber.next({ kind: 'status', taskId, contextId, status: { state: 'completed' } });
        subscriber.complete();
      }),
    send: refuse,
    resubscribe: refuse,
    getTask: refuse,
    // An abandoned (held) turn is cancelled at teardown.
    cancel: (taskId) => of({ id: taskId, contextId: CONTEXT_ID, status: { state: 'canceled' }, artifacts: [] }),
  };
}

/** One turn; returns the reply's length (checked against 16 × N). */
async function oneTurn(port: A2APort, variant: AssemblyVariant): Promise<number> {
  const turn$ = runTurn(port, { text: 'go', contextId: CONTEXT_ID });
  if (variant === 'view') return (await lastValueFrom(turn$.pipe(turnState()))).reply.length;
  const end = (await lastValueFrom(turn$.pipe(last()))) as TurnEvent;
  return end.type === 'end' ? end.text.length : -1;
}

/**
 * Warm-up and measured turns of `n` chunks, each at least `minChunks` chunks in all and 3 turns. The
 * time per chunk is the measured turns' time over their chunks, so the garbage collector's pauses
 * count alike at every size: the median turn of 200 short ones is one no scavenge fell in (one
 * comes every few thousand chunks), while every long turn has its share of them.
 */
export async function assembly(n: number, variant: AssemblyVariant, minChunks: number) {
  const port = syntheticPort(n);
  const turns = Math.max(3, Math.ceil(minChunks / n));
  for (let i = 0; i < turns; i++) await oneTurn(port, variant);
  let wallMs = 0;
  let cpuUs = 0;
  for (let i = 0; i < turns; i++) {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const length = await oneTurn(port, variant);
    wallMs += performance.now() - t0;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
    if (length !== 16 * n) throw new Error(`reply of ${length} chars, expected ${16 * n}`);
  }
  return {
    n,
    variant,
    turns,
    usPerChunk: (wallMs * 1000) / (turns * n),
    cpuUsPerChunk: cpuUs / (turns * n),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

export const SETUP_KINDS = ['ladder', 'client'] as const;
export type SetupKind = (typeof SETUP_KINDS)[number];

/**
 * What a turn costs apart from its events, with no wire: `count` sequential one-chunk turns through
 * `runTurn` (the ladder) or through `createA2A().turn()` over the same synthetic port (the facade:
 * contextId derivation, thread registry, guard), each to its own thread. Then `count` turns held
 * open after their first chunk, weighed after a forced GC.
 */
export async function turnSetup(kind: SetupKind, count: number) {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const oneChunk = syntheticPort(1);
  const open = syntheticPort(1, true);
  const client = createA2A({ identitySecret: BENCH_SECRET, ports: () => portInUse });
  let portInUse = oneChunk;
  const turn$ = (i: number): Observable<TurnEvent> =>
    kind === 'ladder'
      ? runTurn(portInUse, { text: 'go', contextId: CONTEXT_ID })
      : client.turn({ agent: 'http://127.0.0.1:1/', handle: 'bench', thread: `thread-${i}`, text: 'go' });
  for (let i = 0; i < count / 5; i++) await lastValueFrom(turn$(i));
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await lastValueFrom(turn$(count + i));
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);

  portInUse = open;
  gc();
  gc();
  const before = process.memoryUsage();
  let chunks = 0;
  const subscriptions = Array.from({ length: count }, (_, i) =>
    turn$(2 * count + i).subscribe((event) => {
      if (event.type === 'text') chunks++;
    }),
  );
  for (let waited = 0; chunks < count && waited < 30_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  if (chunks !== count) throw new Error(`${chunks} of ${count} held turns saw their chunk`);
  gc();
  gc();
  const during = process.memoryUsage();
  for (const subscription of subscriptions) subscription.unsubscribe();
  await client.close();
  return {
    kind,
    count,
    cpuUsPerTurn: (used.user + used.system) / count,
    wallUsPerTurn: (wallMs * 1000) / count,
    heapKbPerOpenTurn: (during.heapUsed + during.external - before.heapUsed - before.external) / count / 1024,
  };
}
