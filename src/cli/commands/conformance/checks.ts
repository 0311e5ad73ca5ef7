import { firstValueFrom, lastValueFrom, timeout, toArray } from 'rxjs';
import {
  type A2APort,
  type AgentEvent,
  type CardSummary,
  isA2AError,
  isTerminal,
  type SendResult,
  type Task,
} from '../../../node/index.js';
import { describeError } from '../../core/errors.js';

/** One check's result. */
export interface CheckResult {
  /** The operation checked: `card`, `send`, `get-task`, `stream`, `list-tasks`, `cancel`, `task-not-found`. */
  name: string;
  status: 'pass' | 'fail' | 'skip';
  /** What was seen (or why it was skipped), in a few words. */
  detail: string;
}

/** A2A's TaskNotCancelableError. */
const TASK_NOT_CANCELABLE = -32002;

/** What the checks share: the port, the text they send, how long each may take, what earlier ones saw. */
interface Run {
  port: A2APort;
  text: string;
  timeoutMs: number;
  card?: CardSummary;
  task?: Task;
  contextId?: string;
}

type Check = (run: Run) => Promise<Omit<CheckResult, 'name'>>;

const pass = (detail: string) => ({ status: 'pass' as const, detail });
const skip = (detail: string) => ({ status: 'skip' as const, detail });

const checks: [string, Check][] = [
  [
    'card',
    async (run) => {
      const card = await firstValueFrom(run.port.card().pipe(timeout(run.timeoutMs)));
      run.card = card;
      return pass(`A2A ${card.protocolVersion}, ${card.transport} ${card.url}, streaming ${card.streaming ? 'yes' : 'no'}`);
    },
  ],
  [
    'send',
    async (run) => {
      const result: SendResult = await firstValueFrom(run.port.send({ text: run.text }).pipe(timeout(run.timeoutMs)));
      if (result.kind === 'message') {
        if (result.message.contextId !== undefined) run.contextId = result.message.contextId;
        return pass('a message (no task)');
      }
      run.task = result.task;
      if (result.task.contextId !== undefined) run.contextId = result.task.contextId;
      return pass(`task ${result.task.id}, context ${result.task.contextId ?? '(none)'}, state ${result.task.status.state}`);
    },
  ],
  [
    'get-task',
    async (run) => {
      if (run.task === undefined) return skip('no task to read (send answered with a message, or failed)');
      const task = await firstValueFrom(run.port.getTask(run.task.id).pipe(timeout(run.timeoutMs)));
      if (task.id !== run.task.id) throw new Error(`asked for task ${run.task.id}, got ${task.id}`);
      run.task = task;
      return pass(`task ${task.id}, state ${task.status.state}, ${task.artifacts.length} artifact(s)`);
    },
  ],
  [
    'stream',
    async (run) => {
      if (run.card === undefined || !run.card.streaming) return skip('the card does not declare streaming');
      const events: AgentEvent[] = await lastValueFrom(
        run.port.stream({ text: run.text, ...(run.contextId ? { contextId: run.contextId } : {}) }).pipe(toArray(), timeout(run.timeoutMs)),
      );
      const seen = events.filter((event) => event.kind !== 'alive');
      if (seen.length === 0) throw new Error('the stream ended without an event');
      return pass(`${seen.length} event(s): ${[...new Set(seen.map((event) => event.kind))].join(', ')}`);
    },
  ],
  [
    'list-tasks',
    async (run) => {
      if (run.port.listTasks === undefined || run.card === undefined || !run.card.protocolVersion.startsWith('1.'))
        return skip('ListTasks is A2A 1.x only');
      if (run.contextId === undefined) return skip('no context to list (send gave none)');
      const page = await firstValueFrom(run.port.listTasks(run.contextId, { pageSize: 10 }).pipe(timeout(run.timeoutMs)));
      if (run.task !== undefined && !page.tasks.some((task) => task.id === run.task!.id))
        throw new Error(`the context's list does not hold task ${run.task.id}`);
      return pass(`${page.tasks.length} task(s) in context ${run.contextId}`);
    },
  ],
  [
    'cancel',
    async (run) => {
      if (run.task === undefined) return skip('no task to cancel');
      const done = isTerminal(run.task.status.state);
      try {
        const task = await firstValueFrom(run.port.cancel(run.task.id).pipe(timeout(run.timeoutMs)));
        if (done)
          throw new Error(`a ${run.task.status.state} task was cancelled (state ${task.status.state}): TaskNotCancelableError expected`);
        return pass(`task ${task.id} now ${task.status.state}`);
      } catch (error) {
        if (done && isA2AError(error) && error.code === TASK_NOT_CANCELABLE)
          return pass(`a ${run.task.status.state} task: TaskNotCancelableError`);
        throw error;
      }
    },
  ],
  [
    'task-not-found',
    async (run) => {
      const id = `a4h-conformance-${globalThis.crypto.randomUUID()}`;
      try {
        await firstValueFrom(run.port.getTask(id).pipe(timeout(run.timeoutMs)));
      } catch (error) {
        if (isA2AError(error, 'task-not-found')) return pass('an unknown task id: TaskNotFoundError');
        throw error;
      }
      throw new Error('an unknown task id was answered with a task');
    },
  ],
];

/** Runs the checks in order over one agent's port; a check that throws fails with the error's line, the next ones still run. */
export async function runChecks(port: A2APort, text: string, timeoutMs: number): Promise<CheckResult[]> {
  const run: Run = { port, text, timeoutMs };
  const results: CheckResult[] = [];
  for (const [name, check] of checks) {
    try {
      results.push({ name, ...(await check(run)) });
    } catch (error) {
      results.push({ name, status: 'fail', detail: describeError(error) });
      if (name === 'card') break; // nothing else can run without the card
    }
  }
  return results;
}
