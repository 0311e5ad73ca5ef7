import { createA2A } from '../../node/create-a2a.js';
import { readAttachment } from '../attachments.js';
import { MAX_TIMER_MS } from '../../turn/policy.js';
import { AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, CONNECTION_USAGE } from '../agent-options.js';
import { TLS_USAGE } from '../tls.js';
import { TRUST_USAGE } from '../trust.js';
import { UsageError, type Io } from '../io.js';
import { stderrLogger } from '../logger.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, EXTENSION_OPTIONS, extensionsFrom, nonEmpty, parse, THREAD_OPTIONS } from '../options.js';
import { reportTurn } from '../report-turn.js';

export const SEND_USAGE = `Usage: a4h send <agent-url> [--thread KEY] [--handle NAME] [--task ID] [--message-id ID] [--json]
                [--timeout SECONDS] [--attach PATH]… [--save DIR] [--extension URI]… [-H 'Name: value']… [--bearer-env VAR]
                [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL]]
                ${CONNECTION_SYNOPSIS}
                [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                [--trust-jwks FILE|URL]… [--require-signed-card] <text…>

Sends one message and prints the reply (piped, what arrived so far when it times out or is
cancelled), then one line per file or data part the agent sent ([file] name (mediaType, N bytes)).
--attach sends a file with the message (repeatable; the text may then be empty); --save writes the
agent's files (and data parts as JSON) into DIR, never overwriting; without it nothing is written.
With --json, one JSON object per turn event per line (file bytes in base64); the last is always
{"type":"end","outcome",…,"text","attachments"?,"contextId","taskId"}, or
{"type":"error","kind","message"} on an error, a timeout or a cancel.
-H adds a header to every request to the agent's origin (repeatable, as in curl); --bearer-env
reads a bearer token from an environment variable (keeps it out of shell history). --oauth-client-id
with --oauth-client-secret-env gets tokens by OAuth 2.0 client credentials at the token URL the card
names (or --oauth-token-url), for the scopes the card asks (or each --oauth-scope). --task continues
that task (one the agent left waiting for an answer, on this thread: another thread's is refused
before anything is sent), as a later line of a chat would. --message-id gives the message that id
(a fresh one otherwise; the --json start line names it): if the command dies before the agent
answers, \`a4h resume --message ID\` tells whether the agent got it.
--extension activates an A2A extension on every request of the turn (repeatable; sent as
A2A-Extensions); an agent whose card requires one that is not given is refused before anything is sent.
Exit status: 0 completed, 3 input-required, 4 auth-required, 5 credentials refused,
1 failed/rejected/canceled/error, 2 bad usage (an extension the agent requires missing too). The identity secret comes from A4H_IDENTITY_SECRET.
${CONNECTION_USAGE}
${TRUST_USAGE}
${TLS_USAGE}`;

/** The flags `a4h send` takes (its usage lists each; a test keeps them so). */
export const SEND_OPTIONS = {
  ...THREAD_OPTIONS,
  ...AGENT_OPTIONS,
  ...EXTENSION_OPTIONS,
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  attach: { type: 'string', multiple: true },
  save: { type: 'string' },
  task: { type: 'string' },
  'message-id': { type: 'string' },
} as const;

/** `a4h send`: one turn. */
export async function send(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, SEND_OPTIONS);
  if (values.help) {
    io.out.write(`${SEND_USAGE}\n`);
    return 0;
  }
  const [agent, ...words] = positionals;
  const text = words.join(' ');
  const paths = values.attach ?? [];
  if (agent === undefined || (words.length === 0 && paths.length === 0))
    throw new UsageError('send needs an agent URL and a message (or --attach)');
  if (text.trim() === '' && paths.length === 0) throw new UsageError('the message is empty: say something after the agent URL');
  if (values.save !== undefined && values.save.trim() === '') throw new UsageError('--save needs a directory');
  const files = await Promise.all(paths.map((path) => readAttachment(path)));
  let turnTimeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    turnTimeoutMs = Math.ceil(seconds * 1000);
    if (!Number.isFinite(seconds) || seconds <= 0 || turnTimeoutMs > MAX_TIMER_MS) {
      throw new UsageError(`--timeout takes a positive number of seconds, at most ${Math.floor(MAX_TIMER_MS / 1000)}`);
    }
  }
  const input = {
    agent,
    text,
    ...(files.length > 0 ? { files } : {}),
    thread: nonEmpty('thread', values.thread, DEFAULT_THREAD),
    handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE),
    ...(values.task === undefined ? {} : { taskId: nonEmpty('task', values.task, '') }),
    ...(values['message-id'] === undefined ? {} : { messageId: nonEmpty('message-id', values['message-id'], '') }),
    ...extensionsFrom(values),
  };
  const verbose = values.verbose === true;
  const reach = await agentOptions(values, agent, io);
  const client = createA2A({
    logger: stderrLogger(io, verbose),
    ...(turnTimeoutMs ? { policy: { turnTimeoutMs } } : {}),
    ...reach,
  });
  try {
    const json = values.json === true;
    return await reportTurn(io, client.turn(input), { json, verbose, ...(values.save === undefined ? {} : { save: values.save }) });
  } finally {
    await client.close();
  }
}
