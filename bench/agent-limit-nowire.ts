/**
 * The gate's own cost per event, without the wire: one process, two `createA2A` clients over the same
 * synthetic port (its stream makes task, working, `n` chunks and completed as it hands them over), one
 * without the option and one with bounds it never reaches, a turn of each in turn, alternating which
 * goes first. What is timed is the client's turn (the gate, the ladder, the renderer) and nothing else.
 */
import { lastValueFrom, Observable, of } from 'rxjs';
import { createA2A, type A2APort, type AgentEvent, type CardSummary } from 'a4h-a2a';
import { UNREACHED } from './agent-limit-driver.js';
import { BENCH_SECRET } from './drivers/types.js';
import { median } from './stats.js';

const CARD: CardSummary = { name: 'synthetic', streaming: true, protocolVersion: '1.0', transport: 'JSONRPC', url: 'http://127.0.0.1:1/' };

/** A port whose stream makes its events one at a time as it hands them over. */
function syntheticPort(n: number): A2APort {
  const refuse = () => {
    throw new Error('not used by the benchmark');
  };
  return {
    card: () => of(CARD),
    stream: () =>
      new Observable<AgentEvent>((subscriber) => {
        const taskId = 'task-1';
        subscriber.next({ kind: 'task', task: { id: taskId, contextId: 'ctx', status: { state: 'submitted' }, artifacts: [] } });
        subscriber.next({ kind: 'status', taskId, status: { state: 'working' } });
        for (let i = 0; i < n && !subscriber.closed; i++) {
          const artifact = { artifactId: 'out', parts: [{ kind: 'text' as const, text: 'sixteen bytes ok' }] };
          subscriber.next({ kind: 'artifact', taskId, artifact, append: i > 0, lastChunk: i === n - 1 });
        }
        if (!subscriber.closed) subscriber.next({ kind: 'status', taskId, status: { state: 'completed' } });
        subscriber.complete();
      }),
    send: refuse,
    resubscribe: refuse,
    getTask: refuse,
    cancel: refuse,
  };
}

/** `turns` pairs of turns of `n` chunks (after 2 warm-up pairs): CPU µs per chunk of each client, and each pair's ratio. */
export async function noWire(n: number, turns: number) {
  const port = syntheticPort(n);
  const common = { identitySecret: BENCH_SECRET, ports: () => port, policy: { continueInterrupted: false } };
  const clients = { plain: createA2A(common), limited: createA2A({ ...common, agentLimits: UNREACHED }) };
  const oneTurn = async (which: 'plain' | 'limited', i: number): Promise<number> => {
    const cpu = process.cpuUsage();
    await lastValueFrom(clients[which].turn({ agent: CARD.url, handle: 'bench', thread: `t-${i}`, text: 'go', contextId: 'ctx' }));
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / n;
  };
  const plain: number[] = [];
  const limited: number[] = [];
  for (let i = -2; i < turns; i++) {
    const order = i % 2 === 0 ? (['plain', 'limited'] as const) : (['limited', 'plain'] as const);
    const us: Record<string, number> = {};
    for (const which of order) us[which] = await oneTurn(which, i);
    if (i < 0) continue;
    plain.push(us['plain']!);
    limited.push(us['limited']!);
  }
  await Promise.all([clients.plain.close(), clients.limited.close()]);
  return {
    plainUsPerChunk: median(plain),
    limitedUsPerChunk: median(limited),
    pairedRatio: median(limited.map((value, i) => value / plain[i]!)),
  };
}
