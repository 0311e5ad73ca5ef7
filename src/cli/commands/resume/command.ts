import { Writable } from 'node:stream';
import { tap } from 'rxjs';
import { createA2A, DEFAULT_POLICY } from '../../../node/index.js';
import { THREAD_AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, REACH_USAGE } from '../../reach/agent-options.js';
import { clientReach } from '../../reach/debug-client.js';
import { defineCommand, type Call } from '../../core/command.js';
import { notice, UsageError, type Io } from '../../core/io.js';
import { stderrLogger } from '../../core/logger.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, extensionsFrom, nonEmpty } from '../../core/options.js';
import { reportTurn } from '../../turns/report-turn.js';
import { oneAgent, DEBUG_OPTIONS, OUTPUT_OPTIONS, TASK_ID_OPTIONS, TURN_JSON_OPTIONS } from '../../core/flags.js';

/** The flags `a4h resume` takes (its usage lists each; a test keeps them so). */
export const RESUME_OPTIONS = {
  ...THREAD_AGENT_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...TURN_JSON_OPTIONS,
  ...DEBUG_OPTIONS,
  ...TASK_ID_OPTIONS,
  message: { type: 'string' },
  'sent-at': { type: 'string' },
} as const;

/** `a4h resume`: one resumed turn. */
export const resume = defineCommand({
  name: 'resume',
  usage: `Usage: a4h resume <agent> [-a REF] [--thread KEY] [--handle NAME] [--task-id ID | --message ID [--sent-at WHEN]] [-o text|json] [--json] [--debug]
                  [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                  [--extension URI]… [-H 'Name: value']… [--bearer-env VAR]
                  [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]] [--trust-jwks FILE|URL]… [--require-signed-card]
                  ${CONNECTION_SYNOPSIS}

Shows the reply in progress on a thread, from its beginning to its end, without sending anything:
a reply another process started (a chat that was left, a gateway that died), or the question the
agent is waiting on. The thread's task is found with ListTasks (A2A v1.0 agents). --task-id ID follows
that task instead (any version): with --thread or --handle it must be that thread's (another thread's
task is refused, nothing of it shown); without either, you vouch for it and it is followed as it is.
--message ID follows the thread's task that carries that message (the messageId a send's --json
start line names), or says the agent never got it (exit 1: send it again), or that a4h cannot tell
(exit 1: do not send it again; ask later). An agent may list a task a moment after it takes a
message, so "never got" comes only 10 s after the message was sent: --sent-at WHEN (milliseconds
since the epoch, or an ISO 8601 time; within a minute is enough) says when, else it counts from
now (--task is taken as --task-id). With nothing in flight it says so and exits 0. Output: the reply
as send shows it; -o json one JSON document, the turn's last event (its end: {"type":"end","outcome",
"text","taskId","contextId",…}, or its error: {"type":"error",…}); --json a4h's turn events, one JSON
object per line, as send's (not with -o). --extension and the exit status are send's; Ctrl-C cancels
the task at the agent. --debug logs each request and answer on stderr (gRPC calls too), every
credential redacted. --verbose shows an error's causes.
${REACH_USAGE}`,
  options: RESUME_OPTIONS,
  run: resumeTurn,
});

async function resumeTurn(call: Call<typeof RESUME_OPTIONS>): Promise<number> {
  const { values, io, mode } = call;
  if (values.json && values.output !== undefined) throw new UsageError('--json (a4h’s turn events) goes alone: not with -o');
  const agent = oneAgent(call);
  const taskId = values['task-id'];
  if (taskId !== undefined && values.message !== undefined) throw new UsageError('give --task-id or --message, not both');
  if (values['sent-at'] !== undefined && values.message === undefined)
    throw new UsageError('--sent-at goes with --message: when that message was sent');
  const sentAt = values['sent-at'] === undefined ? undefined : sentAtOf(values['sent-at']);
  // A task followed without a thread named is vouched for by the caller: nothing checks it is a thread's.
  const vouched = taskId !== undefined && values.thread === undefined && values.handle === undefined;
  const thread = vouched ? undefined : nonEmpty('thread', values.thread, DEFAULT_THREAD);
  const input = {
    agent,
    ...(thread === undefined ? {} : { thread, handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE) }),
    ...(taskId === undefined ? {} : { taskId: nonEmpty('task-id', taskId, '') }),
    ...(values.message === undefined ? {} : { messageId: nonEmpty('message', values.message, '') }),
    ...(sentAt === undefined ? {} : { sentAt }),
    ...extensionsFrom(values),
  };
  const verbose = values.verbose === true;
  const logger = stderrLogger(io, verbose);
  const reach = clientReach(io, await agentOptions(values, agent, io), values.debug === true, logger);
  const client = createA2A({ logger, ...reach.options });
  try {
    if (values.message !== undefined) {
      const graceMs = DEFAULT_POLICY.notReceivedAfterMs;
      const from = sentAt === undefined ? 'from now' : `from ${new Date(sentAt).toISOString()}`;
      notice(
        io,
        `looking for message ${JSON.stringify(values.message)} on thread "${thread}" (until ${graceMs / 1000} s ${from} before saying the agent never got it)`,
      );
    }
    let outcome: string | undefined;
    const turn$ = client.resume(input).pipe(tap((event) => event.type === 'end' && (outcome = event.outcome)));
    if (mode.format === 'json') return await lastEventOnly(io, (out) => reportTurn(out, turn$, { json: true, verbose, agent }));
    const code = await reportTurn(io, turn$, { json: values.json === true, verbose, agent });
    if (values.json !== true && outcome === 'none') notice(io, `nothing in flight on thread "${thread}"`);
    if (values.json !== true && outcome === 'not-received') {
      notice(io, `the agent never got message ${JSON.stringify(values.message)} on thread "${thread}": send it again`);
    }
    if (values.json !== true && outcome === 'unknown') {
      notice(
        io,
        `a4h cannot tell whether the agent got message ${JSON.stringify(values.message)} on thread "${thread}" (the thread has more tasks since than it lists): do not send it again; ask again later`,
      );
    }
    return code;
  } finally {
    await client.close();
    await reach.close();
  }
}

/** `--sent-at`: milliseconds since the epoch, or an ISO 8601 time (a date and a time); a usage error otherwise. */
function sentAtOf(value: string): number {
  const ms = /^\d{1,15}$/.test(value) ? Number(value) : /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(`--sent-at takes milliseconds since the epoch or an ISO 8601 time, not ${JSON.stringify(value)}`);
  return ms;
}

/**
 * `-o json`: the turn's JSON lines kept back, and only the last (its end, or its error) written, as the
 * command's one document; everything on stderr goes as it came.
 */
async function lastEventOnly(io: Io, report: (io: Io) => Promise<number>): Promise<number> {
  let last = '';
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') last = line;
      done();
    },
  });
  const code = await report({ ...io, out, live: false });
  if (last !== '') io.out.write(`${last}\n`);
  return code;
}
