import { lastValueFrom } from 'rxjs';
import { createA2A, type HistoryPage } from '../../node/index.js';
import { AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, CONNECTION_USAGE } from '../agent-options.js';
import { TLS_USAGE } from '../tls.js';
import { describeError } from '../errors.js';
import { notice, UsageError, type Io } from '../io.js';
import { exchangeLines } from '../exchange-text.js';
import { clientReach } from '../debug-client.js';
import { errorLine, jsonLine } from '../json.js';
import { stderrLogger } from '../logger.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, EXTENSION_OPTIONS, extensionsFrom, nonEmpty, parse, THREAD_OPTIONS } from '../options.js';
import { shellQuote } from '../shell-quote.js';
import { terminalLine } from '../terminal-text.js';
import { TRUST_USAGE } from '../trust.js';

export const HISTORY_USAGE = `Usage: a4h history <agent-url> [--thread KEY] [--handle NAME] [--limit N] [--before CURSOR] [--json] [--debug]
                   [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                   [--extension URI]… [-H 'Name: value']… [--bearer-env VAR]
                   [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]] [--trust-jwks FILE|URL]… [--require-signed-card]
                   ${CONNECTION_SYNOPSIS}

Shows a thread's past exchanges, oldest first, as the agent keeps them: nothing is stored here, the
agent's tasks are listed by the thread's conversation id (ListTasks: A2A v1.0 agents; a v0.3 agent is
an error, exit 1). Each exchange is "you: …" (the person's message and files), the reply as it ended,
its files, and [outcome] ([working] for a reply still running: a4h resume follows it). --limit N shows
the newest N (1–100, default 20); when there are earlier ones, stderr says so, and --before CURSOR
shows the ones before. --json: one JSON object per exchange per line ({"type":"exchange",…}, a file's
bytes in base64), then {"type":"before","before":CURSOR} when there are earlier ones.
--debug logs each request and answer on stderr (gRPC calls too), every credential redacted.
${CONNECTION_USAGE}
${TRUST_USAGE}
${TLS_USAGE}`;

/** The flags `a4h history` takes. */
export const HISTORY_OPTIONS = {
  ...THREAD_OPTIONS,
  ...AGENT_OPTIONS,
  ...EXTENSION_OPTIONS,
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  limit: { type: 'string' },
  before: { type: 'string' },
} as const;

/** `a4h history`: one page of a thread's past exchanges. */
export async function history(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, HISTORY_OPTIONS);
  if (values.help) {
    io.out.write(`${HISTORY_USAGE}\n`);
    return 0;
  }
  const [agent, ...rest] = positionals;
  if (agent === undefined || rest.length > 0) throw new UsageError('history needs exactly one agent URL');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    throw new UsageError('--limit must be a whole number from 1 to 100');
  }
  const input = {
    agent,
    thread: nonEmpty('thread', values.thread, DEFAULT_THREAD),
    handle: nonEmpty('handle', values.handle, DEFAULT_HANDLE),
    ...(limit === undefined ? {} : { limit }),
    ...(values.before === undefined ? {} : { before: nonEmpty('before', values.before, '') }),
    ...extensionsFrom(values),
  };
  const logger = stderrLogger(io, values.verbose === true);
  const reach = clientReach(io, await agentOptions(values, agent, io), values.debug === true, logger);
  const client = createA2A({ logger, ...reach.options });
  try {
    let page: HistoryPage;
    try {
      page = await lastValueFrom(client.history(input));
    } catch (error) {
      const kind = (error as { kind?: unknown } | undefined)?.kind;
      if (values.json) io.out.write(`${errorLine(typeof kind === 'string' ? kind : 'error', describeError(error), error)}\n`);
      throw error;
    }
    if (values.json) {
      for (const exchange of page.exchanges) io.out.write(`${jsonLine({ type: 'exchange', ...exchange })}\n`);
      if (page.before !== undefined) io.out.write(`${jsonLine({ type: 'before', before: page.before })}\n`);
      return 0;
    }
    if (page.exchanges.length === 0) notice(io, `nothing said on thread "${input.thread}" yet`);
    io.out.write(page.exchanges.map((exchange) => `${exchangeLines(exchange).join('\n')}\n`).join('\n'));
    if (page.before !== undefined) notice(io, `earlier exchanges: add --before ${terminalLine(shellQuote(page.before))}`);
    return 0;
  } finally {
    await client.close();
    await reach.close();
  }
}
