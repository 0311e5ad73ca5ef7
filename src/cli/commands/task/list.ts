import { lastValueFrom } from 'rxjs';
import {
  listTasksOf,
  type ListTasksOptions,
  protocolTask,
  type TaskPage,
  type TaskState,
  WIRE_STATES,
  within,
} from '../../../node/index.js';
import { UsageError } from '../../core/io.js';
import type { Call } from '../../core/command.js';
import { writeDocument, writeRecord } from '../../output/output.js';
import { taskRecord } from '../../output/text.js';
import { agentOf, defineTaskCommand, onAgent, REQUEST_TIMEOUT_MS, TASK_OPTIONS, wholeNumber } from './common.js';

/** The states `--status` takes, by their short names and their wire names. */
const STATES = new Map<string, TaskState>(
  Object.entries(WIRE_STATES).flatMap(([state, wire]) =>
    state === 'unknown'
      ? []
      : [
          [state, state as TaskState],
          [wire.toLowerCase(), state as TaskState],
        ],
  ),
);

/** The flags `a4h task list` takes. */
export const TASK_LIST_OPTIONS = {
  ...TASK_OPTIONS,
  'context-id': { type: 'string' },
  status: { type: 'string' },
  'page-size': { type: 'string' },
  'page-token': { type: 'string' },
} as const;

/** `a4h task list`. */
export const taskList = defineTaskCommand({
  name: 'task list',
  usage: `Usage: a4h task list -a REF [--context-id ID] [--status STATE] [--page-size N] [--page-token T] [-o text|json]

Lists the agent's tasks (ListTasks: A2A v1.0 agents), newest first as the agent orders them, one page
at a time: each task's id, context id and state. When there are more, the last record is its
"Next Page Token:", which --page-token takes to show the next page. -o json prints the protocol's
ListTasksResponse ({"tasks": […], "nextPageToken": …}).
  --context-id ID        only the tasks of this context (default: every one the agent lets you see)
  --status STATE         only tasks in this state: submitted, working, input-required, auth-required,
                         completed, failed, canceled, rejected (or TASK_STATE_…) (default: any)
  --page-size N          at most N tasks (1–100; default: the agent's)
  --page-token T         the page after the one that gave this token (default: the first)`,
  options: TASK_LIST_OPTIONS,
  run: listTask,
});

async function listTask(call: Call<typeof TASK_LIST_OPTIONS>): Promise<number> {
  const { values, positionals, io, mode } = call;
  if (positionals.length > 0) throw new UsageError('task list takes no argument: the agent is -a REF');
  const agent = agentOf(values, 'task list');
  const options: ListTasksOptions = {};
  if (values.status !== undefined) {
    const typed = values.status.trim().toLowerCase();
    const state = STATES.get(typed.startsWith('task_state_') ? typed : typed.replace(/_/g, '-'));
    if (state === undefined)
      throw new UsageError(`--status takes a task state: ${[...STATES.keys()].filter((s) => !s.startsWith('task_')).join(', ')}`);
    options.status = state;
  }
  const pageSize = wholeNumber('page-size', values['page-size'], 1, 100);
  if (pageSize !== undefined) options.pageSize = pageSize;
  if (values['page-token'] !== undefined) options.pageToken = values['page-token'];
  return onAgent(call, { agent }, async ({ port }) => {
    const page = await lastValueFrom(
      listTasksOf(port, values['context-id'] ?? '', options).pipe(within<TaskPage>(REQUEST_TIMEOUT_MS, 'poll-request', 'list-tasks')),
    );
    if (mode.format === 'json') {
      writeDocument(io, { tasks: page.tasks.map(protocolTask), ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) });
      return 0;
    }
    for (const task of page.tasks) writeRecord(io, { fields: taskRecord(task).fields });
    if (page.nextPageToken) writeRecord(io, { fields: [['Next Page Token', page.nextPageToken]] });
    return 0;
  });
}
