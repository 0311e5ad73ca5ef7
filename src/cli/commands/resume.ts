import { tap } from 'rxjs';
import { createA2A } from '../../node/create-a2a.js';
import { AGENT_OPTIONS, agentOptions } from '../agent-options.js';
import { TRUST_USAGE } from '../trust.js';
import { notice, UsageError, type Io } from '../io.js';
import { stderrLogger } from '../logger.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, EXTENSION_OPTIONS, extensionsFrom, nonEmpty, parse, THREAD_OPTIONS } from '../options.js';
import { reportTurn } from '../report-turn.js';

export const RESUME_USAGE = `Usage: a4h resume <agent-url> [--thread KEY] [--handle NAME] [--task ID] [--json] [--extension URI]…
                  [-H 'Name: value']… [--bearer-env VAR] [--trust-jwks FILE|URL]… [--require-signed-card]

Shows the reply in progress on a thread, from its beginning to its end, without sending anything:
a reply another process started (a chat that was left, a gateway that died), or the question the
agent is waiting on. The thread's task is found with ListTasks (A2A v1.0 agents); --task ID follows
that task instead (any version). With nothing in flight it says so and exits 0. Output, --json,
--extension and the exit status are send's; Ctrl-C cancels the task at the agent.
${TRUST_USAGE}`;

/** `a4h resume`: one resumed turn. */
export async function resume(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, {
    ...THREAD_OPTIONS,
    ...AGENT_OPTIONS,
    ...EXTENSION_OPTIONS,
    json: { type: 'boolean' },
    task: { type: 'string' },
  });
  if (values.help) {
    io.out.write(`${RESUME_USAGE}\n`);
    return 0;
  }
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('resume needs exactly one agent URL');
  const input = {
    agent,
    thread: nonEmpty('thread', values.thread, DEFAULT_THREAD),
    handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE),
    ...(values.task === undefined ? {} : { taskId: nonEmpty('task', values.task, '') }),
    ...extensionsFrom(values),
  };
  const verbose = values.verbose === true;
  const reach = await agentOptions(values, agent, io.env);
  const client = createA2A({ logger: stderrLogger(io, verbose), ...reach });
  try {
    let nothing = false;
    const turn$ = client.resume(input).pipe(tap((event) => (nothing ||= event.type === 'end' && event.outcome === 'none')));
    const code = await reportTurn(io, turn$, { json: values.json === true, verbose });
    if (nothing && values.json !== true) notice(io, `nothing in flight on thread "${input.thread}"`);
    return code;
  } finally {
    await client.close();
  }
}
