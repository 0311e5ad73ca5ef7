import { firstValueFrom, fromEvent, merge, Observable } from 'rxjs';
import { A2AError, type A2APort, type AgentEvent, type PushConfigPort, type TaskState } from '../../../node/index.js';
import { notice, onOutClosed, UsageError, type Io } from '../../core/io.js';
import { stderrLogger } from '../../core/logger.js';
import { describeError } from '../../core/errors.js';
import { terminalLine } from '../../output/terminal-text.js';
import { followByPush } from './push-follow.js';
import { pushSecrets, pushUrlOf } from '../../core/push.js';
import { listenAddress, startLocalReceiver } from './push-receiver.js';

/** A2A's PushNotificationNotSupportedError (JSON-RPC -32003; `output/codes.ts` names it). */
const PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;

/** The flags of `task subscribe --push`. */
export const PUSH_OPTIONS = {
  push: { type: 'boolean' },
  'push-listen': { type: 'string' },
  'push-url': { type: 'string' },
} as const;

/** The flags {@link subscribeByPush} reads. */
export interface PushFlags {
  push?: boolean | undefined;
  'push-listen'?: string | undefined;
  'push-url'?: string | undefined;
  'agent-card'?: string | undefined;
  verbose?: boolean | undefined;
}

/** The push flags checked before anything is opened: where to listen and the URL agents post to. */
export function pushPlanOf(values: PushFlags): { listen: { host: string; port: number }; url: string | undefined } | undefined {
  if (!values.push) {
    if (values['push-listen'] !== undefined || values['push-url'] !== undefined)
      throw new UsageError('--push-listen and --push-url say where pushes come: give --push too');
    return undefined;
  }
  return { listen: listenAddress(values['push-listen']), url: pushUrlOf(values['push-url']) };
}

/**
 * `task subscribe --push`: a local receiver started, said on stderr ("listening for pushes at URL"),
 * the task followed by push ({@link followByPush}) with each event handed to `show`, the receiver
 * closed. Resolves to the task's ids and last state, or undefined when stdout's reader went away.
 * Ctrl-C or SIGTERM: the config deleted, then an `aborted` error (exit 1) saying the task goes on.
 */
export async function subscribeByPush(
  io: Io,
  values: PushFlags,
  plan: { listen: { host: string; port: number }; url: string | undefined },
  port: A2APort & PushConfigPort,
  taskId: string,
  requestTimeoutMs: number,
  show: (event: AgentEvent) => void,
): Promise<{ id: string; contextId: string; state: TaskState } | undefined> {
  // The card first (the specification's §13.3): an agent that says it does not push is told so before anything listens.
  const card = await firstValueFrom(port.card());
  if (card.pushNotifications === false) {
    throw new A2AError({
      kind: 'unsupported',
      operation: 'push-config',
      agent: card.url,
      code: PUSH_NOTIFICATION_NOT_SUPPORTED,
      message: `${card.url}: the agent's card does not offer push notifications (capabilities.pushNotifications); follow the task without --push`,
    });
  }
  const secrets = pushSecrets(io.env, true)!;
  const local = await startLocalReceiver(plan.listen, plan.url, secrets, stderrLogger(io, values.verbose === true));
  notice(io, `listening for pushes at ${local.url}${plan.url === undefined ? '' : ` (on ${local.listening})`}`);
  if (secrets.ephemeral)
    notice(io, io.style.dim('A4H_IDENTITY_SECRET is not set: the push credential is signed with a secret made for this run'));
  let outClosed = false;
  const stop$ = merge(
    fromEvent(process, 'SIGINT'),
    fromEvent(process, 'SIGTERM'),
    new Observable<void>((subscriber) =>
      onOutClosed(io, () => {
        outClosed = true;
        subscriber.next();
      }),
    ),
  );
  try {
    const followed = await followByPush({
      port,
      taskId,
      source: local.receiver,
      requestTimeoutMs,
      show,
      stop$,
      ownConfig: (configId) => local.only(configId),
      leftConfig: (configId, error) =>
        notice(
          io,
          io.style.yellow(
            terminalLine(
              `the push config ${configId} of task ${taskId} could not be deleted (${describeError(error)}): ` +
                `a4h task push-config delete ${taskId} ${configId} -a ${values['agent-card'] ?? 'REF'}`,
            ),
          ),
        ),
    });
    if (outClosed) return undefined;
    if (followed.stopped) {
      throw new A2AError({
        kind: 'aborted',
        operation: 'push-config',
        message: `stopped following task ${taskId} by push: its push config was deleted; the task goes on at the agent (${followed.state})`,
      });
    }
    return followed;
  } finally {
    await local.close();
  }
}
