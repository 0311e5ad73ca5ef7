import { firstValueFrom } from 'rxjs';
import { CancelsInFlight } from '../../client/cancels.js';
import { AGENT_OPTIONS, agentOptions } from '../agent-options.js';
import { commandPorts } from '../agent-ports.js';
import { UsageError, type Io } from '../io.js';
import { stderrLogger } from '../logger.js';
import { EXTENSION_OPTIONS, extensionsFrom, parse, THREAD_OPTIONS } from '../options.js';
import { OUTPUT_OPTIONS, reportFailure, type OutputMode } from '../protocol/output.js';
import { reportTurn } from '../report-turn.js';
import { sendAsync } from '../send/async.js';
import { interfaceOrderOf, modeFromArgs, modeOf, policyOf } from '../send/flags.js';
import { PART_OPTIONS, partFlags, readParts, readStdin } from '../send/parts.js';
import { DeliveryPort } from '../send/ports.js';
import { reportProtocolTurn } from '../send/report.js';
import { turnPlan } from '../send/request.js';
import { TRUST_USAGE } from '../trust.js';
import { runTurn } from '../../turn/turn.js';
import { SEND_USAGE } from './send-usage.js';

export { SEND_USAGE };

/** The flags `a4h send` takes (its usage lists each; a test keeps them so). */
export const SEND_OPTIONS = {
  ...THREAD_OPTIONS,
  ...AGENT_OPTIONS,
  ...EXTENSION_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...PART_OPTIONS,
  'agent-card': { type: 'string', short: 'a' },
  json: { type: 'boolean' },
  stream: { type: 'boolean' },
  async: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  save: { type: 'string' },
  'task-id': { type: 'string' },
  'context-id': { type: 'string' },
  'message-id': { type: 'string' },
  transport: { type: 'string', multiple: true },
  'a2a-version': { type: 'string' },
  debug: { type: 'boolean' },
} as const;

/**
 * `a4h send`: one message, and the agent's answer as the A2A CLI specification prints it (`text`, `-o
 * json`, `--stream`); `--json` keeps a4h's turn events. Any failure is reported in the output mode asked
 * for (the envelope on stdout under `-o json`), with its exit status.
 */
export async function send(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, SEND_OPTIONS);
  if (values.help) {
    io.out.write(`${SEND_USAGE}\n${TRUST_USAGE}\n`);
    return 0;
  }
  let mode: OutputMode = modeFromArgs(args);
  const [agent, ...words] = values['agent-card'] === undefined ? positionals : [values['agent-card'], ...positionals];
  try {
    mode = modeOf(values);
    if (agent === undefined) throw new UsageError('send needs an agent: its URL (or -a/--agent-card REF), then the message');
    const parts = await readParts(words, partFlags(args, SEND_OPTIONS), readStdin);
    if (parts.length === 0) throw new UsageError('send needs a message: --text, --file, --data, or words after the agent');
    if (parts.every((part) => part.kind === 'text' && part.text.trim() === '')) throw new UsageError('the message is empty: say something');
    if (values.save !== undefined && (values.save.trim() === '' || values.async))
      throw new UsageError('--save needs a directory, and a send that waits');
    const { request, ladder } = await turnPlan(values, parts, io.env, policyOf(values));
    const verbose = values.verbose === true;
    const logger = stderrLogger(io, verbose);
    const reach = await agentOptions(values, agent, io.env);
    const order = interfaceOrderOf(values);
    const { ports, close } = commandPorts(io, reach, { debug: values.debug === true, logger, interfaceOrder: order });
    const cancels = new CancelsInFlight();
    try {
      const port = ports(agent, extensionsFrom(values));
      // A task named by id alone must exist: the agent's TaskNotFoundError, and nothing sent (§6.2).
      if (request.taskId !== undefined && values.thread === undefined) await firstValueFrom(port.getTask(request.taskId));
      if (values.async) return await sendAsync(io, port, request, mode, agent);
      const save = values.save === undefined ? {} : { save: values.save };
      const options = { ...ladder, logger, onCancel: cancels.track };
      if (values.json) return await reportTurn(io, runTurn(port, request, options), { json: true, verbose, ...save });
      const delivered = new DeliveryPort(port, mode.stream, io);
      return await reportProtocolTurn(io, (onAgentEvent) => runTurn(delivered, request, { ...options, onAgentEvent }), {
        mode,
        agent,
        verbose,
        ...save,
      });
    } finally {
      // A task left by a cancel or a timeout is told so before the connections close.
      await cancels.settled();
      await close();
    }
  } catch (error) {
    return reportFailure(io, mode, error, { command: 'send', verbose: values.verbose === true, ...(agent === undefined ? {} : { agent }) });
  }
}
