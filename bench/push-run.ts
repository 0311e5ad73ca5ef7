/**
 * One cell of `npm run bench:push`, in a fresh process started with `--expose-gc`:
 * `node --expose-gc dist/bench/push-run.js push|stream N CHECK_MS FINISH_RATE START_RATE MAX_CONCURRENT`
 * (a rate of 0: all at once; MAX_CONCURRENT 0: the receiver's default). It forks the agent
 * (push-agent.ts), starts N turns from one `createA2A` client (with `push: { when: 'offered' }` and a
 * receiver on a loopback `node:http` server, or without push: streams), waits until every turn knows
 * its task and the agent has parked them all, watches its own sockets for a window, weighs its heap
 * after a full GC, then has the agent finish every task (at once, or PER_SECOND a second) and times
 * each completion from the agent to the turn's `end`. It prints one line, `RESULT {json}` ({@link RunResult}).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createA2A, createPushReceiver, pushHandler, type PushReceiver } from 'a4h-a2a/node';
import { forkAgent } from './push-ipc.js';
import { liveMemory, socketCensus } from './push-sockets.js';
import type { RunResult } from './push-result.js';

const [mode, n] = [process.argv[2] as 'push' | 'stream', Number(process.argv[3])];
const [checkEveryMs, finishPerSecond] = [Number(process.argv[4] ?? 30_000), Number(process.argv[5] ?? 0)];
const [startPerSecond, maxConcurrent] = [Number(process.argv[6] ?? 0), Number(process.argv[7] ?? 0)];
const SECRET = 'push-bench-identity-secret-0123456789';
const now = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const agent = await forkAgent();
let receiver: PushReceiver | undefined;
let handle = (_req: IncomingMessage, res: ServerResponse): void => void res.writeHead(503).end();
const webhook = createServer((req, res) => handle(req, res));
await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
const receiverPort = (webhook.address() as AddressInfo).port;
if (mode === 'push') {
  const url = `http://127.0.0.1:${receiverPort}/push`;
  receiver = createPushReceiver({ url, secret: SECRET, ...(maxConcurrent > 0 ? { maxConcurrent } : {}) });
  handle = pushHandler(receiver);
}
const a2a = createA2A({
  identitySecret: SECRET,
  maxThreads: n + 16,
  // Streams each hold a connection: the pool must allow N of them. The push turns keep the default pool (256).
  ...(mode === 'stream' ? { http: { connections: n + 16 } } : {}),
  ...(receiver ? { push: { source: receiver, when: 'offered' as const, checkEveryMs } } : {}),
});
const agentUrl = `http://127.0.0.1:${agent.port}/`;
const baseline = await liveMemory();

const known = new Set<string>();
const ended = new Map<string, number>();
const shown = new Map<string, number>();
const outcomes: Record<string, number> = {};
let errors = 0;
const started = now();
for (let i = 0; i < n; i++) {
  const thread = `person-${i}`;
  a2a.turn({ agent: agentUrl, handle: 'bench', thread, text: 'wait for me' }).subscribe({
    next: (event) => {
      if (event.type === 'task') known.add(thread);
      // The completion shown (the pushed status, or the stream's), before the turn's last GetTask and its end.
      if (event.type === 'status' && event.state === 'completed') shown.set(thread, now());
      if (event.type === 'end') {
        ended.set(thread, now());
        outcomes[event.outcome] = (outcomes[event.outcome] ?? 0) + 1;
      }
    },
    error: () => void errors++,
  });
  // All at once (a yield every 250), or START_RATE a second (a batch every 10 ms).
  if (startPerSecond > 0 && i % Math.max(1, Math.round(startPerSecond / 100)) === 0) await sleep(10);
  else if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
}

// Every turn knows its task and the agent has parked them all (or nothing moved for a minute).
let parked = 0;
for (let last = -1, still = 0; still < 120; await sleep(500)) {
  parked = (await agent.ask({ type: 'census' }, 'census')).parked;
  if (known.size + errors >= n && parked >= n) break;
  still = known.size + parked === last ? still + 1 : 0;
  last = known.size + parked;
}
const waitingAfterMs = now() - started;

// The window: long enough for idle keep-alive connections to close (the agent's server: 5 s) and, with
// push, for every turn's first safety-net GetTask to have gone when checkEveryMs is at most 34 s (40 s at most).
const windowMs = mode === 'push' ? Math.min(Math.max(8_000, checkEveryMs + 6_000), 40_000) : 8_000;
const samples: number[] = [];
const fromAgent: number[] = [];
for (const end = now() + windowMs; now() < end; await sleep(250)) {
  const census = socketCensus(agent.port, receiverPort);
  samples.push(census.toAgent);
  fromAgent.push(census.fromAgent);
}
const agentSide = await agent.ask({ type: 'census' }, 'census');
const waiting = await liveMemory();
const stats = receiver?.stats();

// Every task finished; each completion timed from the agent to the turn's end.
const finishAt = now();
const [clientCpu, agentCpu] = [process.cpuUsage(), (await agent.ask({ type: 'census' }, 'census')).cpuMs];
await agent.ask({ type: 'finish', perSecond: finishPerSecond }, 'finishing');
const deadline = finishAt + (finishPerSecond > 0 ? (n / finishPerSecond) * 1000 : 0) + checkEveryMs + 60_000;
while (ended.size + errors < n && now() < deadline) await sleep(100);
const allEndedMs = now() - finishAt;
const cpu = process.cpuUsage(clientCpu);
const finishCpuMs = { client: (cpu.user + cpu.system) / 1000, agent: (await agent.ask({ type: 'census' }, 'census')).cpuMs - agentCpu };
const times = await agent.ask({ type: 'times' }, 'times');
const fromPost: number[] = [];
const fromPublish: number[] = [];
const postToShown: number[] = [];
for (let i = 0; i < n; i++) {
  const contextId = await a2a.contextId('bench', `person-${i}`);
  const [at, seen] = [ended.get(`person-${i}`), shown.get(`person-${i}`)];
  if (at === undefined) continue;
  const posted = times.posted[contextId];
  const published = times.published[contextId];
  if (posted !== undefined) fromPost.push(at - posted);
  if (posted !== undefined && seen !== undefined) postToShown.push(seen - posted);
  if (published !== undefined) fromPublish.push(at - published);
}

const result: RunResult = {
  mode,
  n,
  checkEveryMs: mode === 'push' ? checkEveryMs : undefined,
  finishPerSecond,
  startPerSecond,
  maxConcurrent: mode === 'push' ? maxConcurrent : undefined,
  knownTasks: known.size,
  parked,
  errors,
  waitingAfterMs,
  windowMs,
  toAgent: {
    max: Math.max(...samples),
    last: samples.at(-1)!,
    zeroShare: samples.filter((count) => count === 0).length / samples.length,
    firstZeroMs: samples.indexOf(0) === -1 ? undefined : samples.indexOf(0) * 250,
    samples,
  },
  fromAgentMax: Math.max(...fromAgent),
  agentConnections: agentSide.connections,
  pushFailures: (await agent.ask({ type: 'census' }, 'census')).pushFailures,
  memory: { baseline, waiting },
  receiver: stats ? { outcomes: stats.outcomes, remembered: stats.remembered, following: stats.following } : undefined,
  receiverAfter: receiver?.stats().outcomes,
  ended: ended.size,
  outcomes,
  allEndedMs,
  finishCpuMs,
  fromPost,
  postToShown,
  fromPublish,
};
console.log(`RESULT ${JSON.stringify(result)}`);
await a2a.close();
await agent.stop();
webhook.closeAllConnections();
webhook.close();
process.exit(0);
