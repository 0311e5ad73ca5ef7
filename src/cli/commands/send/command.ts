import { firstValueFrom } from 'rxjs';
import { CancelsInFlight, runTurn } from '../../../node/index.js';
import { THREAD_AGENT_OPTIONS, agentSetup, CONNECTION_USAGE } from '../../reach/agent-options.js';
import { valueOf } from '../../reach/config/load.js';
import { commandPorts } from '../../reach/agent-ports.js';
import { TLS_USAGE } from '../../reach/tls.js';
import { UsageError } from '../../core/io.js';
import { stderrLogger } from '../../core/logger.js';
import { extensionsFrom } from '../../core/options.js';
import { defineCommand, type Call } from '../../core/command.js';
import { agentArg, agentUrl, OUTPUT_OPTIONS, TASK_ID_OPTIONS, TURN_JSON_OPTIONS } from '../../core/flags.js';
import { reportTurn } from '../../turns/report-turn.js';
import { sendAsync } from './async.js';
import { AuthWait } from './auth-wait.js';
import { modeOf, policyOf } from './flags.js';
import { interfaceOrderOf, WIRE_OPTIONS } from '../../reach/wire-flags.js';
import { PART_OPTIONS, partFlags, readParts, readStdin } from './parts.js';
import { DeliveryPort } from './ports.js';
import { pushAskOf, PushAskingPort, pushContextOf } from './push.js';
import { reportProtocolTurn } from './report.js';
import { turnPlan } from './request.js';
import { TRUST_USAGE } from '../../reach/trust.js';
import { SEND_USAGE } from './usage.js';

export { SEND_USAGE };

/** The flags `a4h send` takes (its usage lists each; a test keeps them so). */
export const SEND_OPTIONS = {
  ...THREAD_AGENT_OPTIONS,
  ...OUTPUT_OPTIONS,
  ...PART_OPTIONS,
  ...TURN_JSON_OPTIONS,
  ...TASK_ID_OPTIONS,
  stream: { type: 'boolean' },
  async: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  save: { type: 'string' },
  'context-id': { type: 'string' },
  'message-id': { type: 'string' },
  'push-url': { type: 'string' },
  ...WIRE_OPTIONS,
} as const;

/**
 * `a4h send`: one message, and the agent's answer as the A2A CLI specification prints it (`text`, `-o
 * json`, `--stream`); `--json` keeps a4h's turn events. Any failure, a usage mistake included, is reported
 * in the output mode asked for (the envelope on stdout under `-o json`), with its exit status.
 */
export const send = defineCommand({
  name: 'send',
  usage: `${SEND_USAGE}\n${CONNECTION_USAGE}\n${TRUST_USAGE}\n${TLS_USAGE}`,
  options: SEND_OPTIONS,
  failures: 'fields',
  run: sendOne,
});

async function sendOne({ values, positionals, args, io, about }: Call<typeof SEND_OPTIONS>): Promise<number> {
  const mode = modeOf(values);
  const { ref, rest: words } = agentArg(values, positionals, 'send');
  const agent = (about.agent = agentUrl(ref, 'send'));
  const parts = await readParts(words, partFlags(args, SEND_OPTIONS), readStdin);
  if (parts.length === 0) throw new UsageError('send needs a message: --text, --file, --data, or words after the agent');
  if (parts.every((part) => part.kind === 'text' && part.text.trim() === '')) throw new UsageError('the message is empty: say something');
  if (values.save !== undefined && (values.save.trim() === '' || values.async))
    throw new UsageError('--save needs a directory, and a send that waits');
  const policy = policyOf(values);
  const push = pushAskOf(values, io.env);
  const { request, ladder } = await turnPlan(values, parts, io.env, policy);
  const verbose = values.verbose === true;
  const logger = stderrLogger(io, verbose);
  const { options: reach, configuration } = await agentSetup(values, agent, io);
  const order = interfaceOrderOf(values, valueOf(configuration, 'a2a-version'));
  const { ports, close } = commandPorts(io, reach, { debug: values.debug === true, logger, interfaceOrder: order });
  const cancels = new CancelsInFlight();
  try {
    let port = ports(agent, extensionsFrom(values));
    let taskContextId: string | undefined;
    // A task named by id must exist (the agent's TaskNotFoundError), and be of the --context-id given: nothing sent otherwise (§6.2).
    if (request.taskId !== undefined && values.thread === undefined) {
      const task = await firstValueFrom(port.getTask(request.taskId));
      taskContextId = task.contextId;
      if (request.contextId !== undefined && task.contextId !== undefined && task.contextId !== request.contextId) {
        throw new UsageError(
          `--task-id ${request.taskId} is a task of another context than --context-id ${request.contextId}: give one, or both of the same task`,
        );
      }
    }
    if (push !== undefined) {
      // The push credential names the conversation: the message names one (its own, its task's, or a new one).
      request.contextId = pushContextOf(request.contextId, taskContextId);
      port = new PushAskingPort(port, push, request.contextId, io);
    }
    if (values.async) return await sendAsync(io, port, request, mode, agent);
    const save = values.save === undefined ? {} : { save: values.save };
    const options = { ...ladder, logger, onCancel: cancels.track };
    // A task at AUTH_REQUIRED is waited on (until --timeout) while the agent may go on by itself: said at once on stderr.
    const authWait = new AuthWait(io, agent, policy.turnTimeoutMs);
    const delivered = new DeliveryPort(port, mode.stream, io);
    const thread = values.thread === undefined ? {} : { thread: { key: values.thread, handle: values.handle } };
    if (values.json) {
      return await reportTurn(io, runTurn(delivered, request, options), {
        json: true,
        verbose,
        watch: authWait,
        agent,
        port: delivered,
        ...thread,
        ...save,
      });
    }
    return await reportProtocolTurn(io, (onAgentEvent) => runTurn(delivered, request, { ...options, onAgentEvent }), {
      mode,
      agent,
      verbose,
      port: delivered,
      ...thread,
      reread: (taskId, historyLength) => firstValueFrom(port.getTask(taskId, historyLength)),
      authWait,
      ...save,
    });
  } finally {
    // A task left by a cancel or a timeout is told so before the connections close.
    await cancels.settled();
    await close();
  }
}
