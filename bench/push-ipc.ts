/** What `bench/push-run.ts` and its agent (`bench/push-agent.ts`, forked) say to each other over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** To the agent: how many tasks are parked and how many connections it holds; finish them all (at once: `perSecond` 0); the times; stop. */
export type ToAgent = { type: 'census' } | { type: 'finish'; perSecond: number } | { type: 'times' } | { type: 'stop' };

/** From the agent. */
export type AgentReport =
  | { type: 'ready'; port: number }
  | { type: 'census'; parked: number; connections: number; cpuMs: number; pushFailures: number }
  | { type: 'finishing'; count: number }
  /** By contextId, ms on the shared wall clock: the completion published, and its push about to be POSTed. */
  | { type: 'times'; published: Record<string, number>; posted: Record<string, number> };

/** The forked agent: its port, and one call per question. */
export interface BenchAgent {
  readonly port: number;
  readonly pid: number;
  ask<T extends AgentReport['type']>(message: ToAgent, answer: T): Promise<Extract<AgentReport, { type: T }>>;
  stop(): Promise<void>;
}

/** Forks `push-agent.js` beside this file (its heap raised for 10,000 tasks) and waits for its port. */
export async function forkAgent(): Promise<BenchAgent> {
  const script = fileURLToPath(new URL('./push-agent.js', import.meta.url));
  const child: ChildProcess = fork(script, [], { execArgv: ['--max-old-space-size=4096'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends AgentReport['type']>(type: T): Promise<Extract<AgentReport, { type: T }>> =>
    new Promise((resolve) => {
      const on = (report: AgentReport): void => {
        if (report.type !== type) return;
        child.off('message', on);
        resolve(report as Extract<AgentReport, { type: T }>);
      };
      child.on('message', on);
    });
  process.once('exit', () => child.kill()); // a cell that fails leaves no agent behind
  const { port } = await next('ready');
  return {
    port,
    pid: child.pid!,
    ask: (message, answer) => {
      const reply = next(answer);
      child.send(message);
      return reply;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'stop' } satisfies ToAgent);
      }),
  };
}
