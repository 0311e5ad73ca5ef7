import { lastValueFrom } from 'rxjs';
import { createA2A, type HistoryPage } from '../../../node/index.js';
import { THREAD_AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, REACH_USAGE } from '../../reach/agent-options.js';
import { defineCommand } from '../../core/command.js';
import { notice, UsageError } from '../../core/io.js';
import { exchangeLines } from '../../turns/exchange-text.js';
import { clientReach } from '../../reach/debug-client.js';
import { oneAgent, DEBUG_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';
import { jsonLine } from '../../output/json.js';
import { stderrLogger } from '../../core/logger.js';
import { DEFAULT_HANDLE, DEFAULT_THREAD, extensionsFrom, nonEmpty } from '../../core/options.js';
import { shellQuote } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';

/** The flags `a4h history` takes. */
export const HISTORY_OPTIONS = {
  ...THREAD_AGENT_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...DEBUG_OPTIONS,
  limit: { type: 'string' },
  before: { type: 'string' },
} as const;

/** `a4h history`: one page of a thread's past exchanges. */
export const history = defineCommand({
  name: 'history',
  usage: `Usage: a4h history <agent> [-a REF] [--thread KEY] [--handle NAME] [--limit N] [--before CURSOR] [-o text|json] [--debug]
                   [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE]
                   [--extension URI]… [-H 'Name: value']… [--bearer-env VAR]
                   [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]] [--trust-jwks FILE|URL]… [--require-signed-card]
                   ${CONNECTION_SYNOPSIS}

Shows a thread's past exchanges, oldest first, as the agent keeps them: nothing is stored here, the
agent's tasks are listed by the thread's conversation id (ListTasks: A2A v1.0 agents; a v0.3 agent is
an error, exit 1). Each exchange is "you: …" (the person's message and files), the reply as it ended,
its files, and [outcome] ([working] for a reply still running: a4h resume follows it). --limit N shows
the newest N (1–100, default 20); when there are earlier ones, stderr says so, and --before CURSOR
shows the ones before. -o json: one JSON document {"exchanges":[…],"before":CURSOR} (each exchange's
files with their bytes in base64; "before" only when there are earlier ones); a failure, the error
envelope {"error":{…}}. --debug logs each request and answer on stderr (gRPC calls too), every credential
redacted. --verbose shows an error's causes.
${REACH_USAGE}`,
  options: HISTORY_OPTIONS,
  async run(call) {
    const { values, io, mode } = call;
    const agent = oneAgent(call);
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
      const page: HistoryPage = await lastValueFrom(client.history(input));
      if (mode.format === 'json') {
        // One document on one line (a file's bytes in base64).
        io.out.write(`${jsonLine({ exchanges: page.exchanges, ...(page.before === undefined ? {} : { before: page.before }) })}\n`);
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
  },
});
