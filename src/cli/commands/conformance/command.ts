import { AGENT_OPTIONS, agentOptions, CONNECTION_SYNOPSIS, REACH_USAGE } from '../../reach/agent-options.js';
import { commandPorts } from '../../reach/agent-ports.js';
import { runChecks } from './checks.js';
import { defineCommand } from '../../core/command.js';
import { UsageError } from '../../core/io.js';
import { stderrLogger } from '../../core/logger.js';
import { durationMs } from '../../core/options.js';
import { AGENT_REF_OPTIONS, oneAgent, COMMON_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';
import { terminalJson, terminalLine } from '../../output/terminal-text.js';

/** Said with every result: what this is, and what it is not. */
export const NOT_THE_TCK =
  'a smoke check of basic operations from this client, not the A2A TCK (github.com/a2aproject/a2a-tck), which tests agents in depth';

/** The flags `a4h conformance` takes. */
export const CONFORMANCE_OPTIONS = {
  ...AGENT_OPTIONS,
  text: { type: 'string' },
  timeout: { type: 'string' },
  ...AGENT_REF_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...COMMON_OPTIONS,
} as const;

/** `a4h conformance`: the checks, their results, the tally. */
export const conformance = defineCommand({
  name: 'conformance',
  usage: `Usage: a4h conformance <agent> [-a REF] [--text TEXT] [--timeout DURATION] [-o text|json] [-H 'Name: value']… [--bearer-env VAR]
                       [--oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes]]
                       ${CONNECTION_SYNOPSIS}
                       [--cert FILE] [--key FILE] [--key-pass-env VAR] [--cacert FILE] [--trust-jwks FILE|URL]… [--require-signed-card]

Smoke-checks a live agent's basic operations, one after the other, each bounded by --timeout
(default 30 s): card (fetched, parsed, an interface chosen), send (a blocking SendMessage of
--text, default "a4h conformance check"), get-task (that task read back), stream (a streaming send,
when the card declares streaming), list-tasks (the context's tasks, A2A 1.x), cancel (a finished
task refused with TaskNotCancelableError, a running one cancelled), task-not-found (an unknown task
id refused with TaskNotFoundError). One line per check (name: pass|fail|skip (what was seen)), then
the tally. This is ${NOT_THE_TCK}.
-o json prints one object: {"agent","checks":[{"name","status","detail"}],"pass","fail","skip","note"}.
Exit status: 0 no check failed, 1 one did, 2 bad usage. --verbose shows an error's causes.
${REACH_USAGE}`,
  options: CONFORMANCE_OPTIONS,
  async run(call) {
    const { values, io, mode } = call;
    const agent = oneAgent(call);
    // A duration as every command takes it (a number of seconds, or 500ms, 2s, 5m, 1h), at most an hour.
    const timeoutMs = values.timeout === undefined ? 30_000 : durationMs('timeout', values.timeout, 3_600_000);
    const text = values.text ?? 'a4h conformance check';
    if (text.trim() === '') throw new UsageError('--text must not be empty');
    // The agent reached as every command reaches it: credentials, client certificate and CA, trust.
    const reach = await agentOptions(values, agent, io);
    const { ports, close } = commandPorts(io, reach, { debug: false, logger: stderrLogger(io, values.verbose === true) });
    try {
      const checks = await runChecks(ports(agent), text, timeoutMs);
      const count = (status: string) => checks.filter((check) => check.status === status).length;
      const tally = { pass: count('pass'), fail: count('fail'), skip: count('skip') };
      if (mode.format === 'json') {
        io.out.write(`${terminalJson(JSON.stringify({ agent, checks, ...tally, note: NOT_THE_TCK }))}\n`);
      } else {
        io.out.write(`Agent: ${agent}\n`);
        for (const check of checks) io.out.write(`${check.name}: ${check.status} (${terminalLine(check.detail)})\n`);
        io.out.write(`Result: ${checks.length} checks: ${tally.pass} pass, ${tally.fail} fail, ${tally.skip} skip\n`);
        io.out.write(`Note: ${NOT_THE_TCK}\n`);
      }
      return tally.fail === 0 ? 0 : 1;
    } finally {
      await close();
    }
  },
});
