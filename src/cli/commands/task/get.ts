import { lastValueFrom } from 'rxjs';
import { protocolTask, type Task, waitForTask, within } from '../../../node/index.js';
import { notice } from '../../core/io.js';
import type { Call } from '../../core/command.js';
import { shellQuote } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';
import { printResult, warnOutcome } from '../../output/print.js';
import { partsText, taskRecord } from '../../output/text.js';
import type { TextRecord } from '../../output/output.js';
import { defineTaskCommand, durationMs, ONE_TASK_OPTIONS, onTask, REQUEST_TIMEOUT_MS, wholeNumber } from './common.js';

/** `--poll-interval`'s default: 2 s (the specification's recommendation); the backoff grows it to 4×, at most 30 s. */
export const POLL_INTERVAL_MS = 2_000;
/** `--timeout`'s default for `--wait`: 10 minutes. */
export const WAIT_TIMEOUT_MS = 600_000;

/** The flags `a4h task get` takes. */
export const TASK_GET_OPTIONS = {
  ...ONE_TASK_OPTIONS,
  history: { type: 'string' },
  wait: { type: 'boolean' },
  'poll-interval': { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** `a4h task get`: one snapshot, or with `--wait` the one the task settles at. */
export const taskGet = defineTaskCommand({
  name: 'task get',
  usage: `Usage: a4h task get <task-id>|--task-id ID -a REF [--history N] [--wait [--poll-interval D] [--timeout D]] [-o text|json]

Reads a task by its id (GetTask): its id, context id and state, its status message and its artifacts
(always: text as text, data as JSON, a file by its name, media type and size), and with --history N
its last N messages. -o json prints the protocol's Task as the agent sent it.
  --history N            the task's last N messages too (default: none)
  --wait                 wait until the task ends or waits for you (input or auth required): its stream
                         when the card offers streaming, else (or when the stream fails) GetTask every
                         --poll-interval (default 2s, growing to 4x, at most 30s); prints the last snapshot
  --poll-interval D      the first delay between polls (default 2s; 500ms, 2s, 1m)
  --timeout D            how long --wait waits (default 10m); past it, A2ACLI_ERR_TIMEOUT and exit 5
Exit status: 0 when the task was read (whatever its state: a failed or waiting task is named on stderr),
1 failure (TaskNotFoundError…), 2 usage, 3 agent unreachable, 4 authentication, 5 timeout.`,
  options: TASK_GET_OPTIONS,
  run: getTask,
});

async function getTask(call: Call<typeof TASK_GET_OPTIONS>): Promise<number> {
  const { values, io, mode } = call;
  const historyLength = wholeNumber('history', values.history, 0, 1000);
  const pollIntervalMs = durationMs('poll-interval', values['poll-interval'], POLL_INTERVAL_MS);
  const timeoutMs = durationMs('timeout', values.timeout, WAIT_TIMEOUT_MS);
  return onTask(call, async ({ port }, { agent, taskId }) => {
    let task: Task;
    if (values.wait) {
      // Said first, so Ctrl-C during the wait loses nothing: the task goes on, and this is how to read it.
      notice(
        io,
        terminalLine(
          `waiting for task ${taskId} (Ctrl-C stops waiting; the task goes on: a4h task get ${shellQuote(taskId)} -a ${shellQuote(agent)})`,
        ),
      );
      const wait = {
        pollIntervalMs,
        maxPollIntervalMs: Math.min(Math.max(pollIntervalMs, 30_000), pollIntervalMs * 4),
        timeoutMs,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        preferStream: true,
        ...(historyLength === undefined ? {} : { historyLength }),
      };
      task = await lastValueFrom(waitForTask(port, taskId, wait));
    } else {
      task = await lastValueFrom(port.getTask(taskId, historyLength).pipe(within<Task>(REQUEST_TIMEOUT_MS, 'poll-request', 'get-task')));
    }
    printResult(io, mode, protocolTask(task), withHistory(taskRecord(task), historyLength === undefined ? [] : (task.history ?? [])));
    warnOutcome(io, task.status.state, task.status);
    return 0;
  });
}

/** A task's record with its messages of history as blocks after the rest: `History: ROLE_USER` then the message's parts. */
function withHistory(record: TextRecord, history: NonNullable<Task['history']>): TextRecord {
  const blocks = history.map((message) => ({
    label: 'History',
    value: message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
    body: partsText(message.parts),
  }));
  return blocks.length === 0 ? record : { ...record, blocks: [...(record.blocks ?? []), ...blocks] };
}
