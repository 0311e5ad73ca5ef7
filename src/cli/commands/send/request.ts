import {
  deriveContextId,
  IDENTITY_SECRET_ENV,
  type LadderOptions,
  type OutgoingPart,
  PREVIOUS_IDENTITY_SECRETS_ENV,
  previousSecretsFromEnv,
  type TurnPolicyInput,
  type TurnRequest,
} from '../../../node/index.js';
import { UsageError } from '../../core/io.js';
import { DEFAULT_HANDLE, nonEmpty } from '../../core/options.js';

/** The flags that say which interaction a message goes with. */
export interface ThreadFlags {
  thread?: string | undefined;
  handle?: string | undefined;
  'context-id'?: string | undefined;
  'task-id'?: string | undefined;
  'message-id'?: string | undefined;
}

/**
 * The message and how its turn runs. Without `--thread` the message names only what the caller named
 * (the A2A CLI specification's §6: `--context-id` groups it with an interaction, `--task-id` continues a
 * task; neither, and the agent starts a new interaction): nothing is invented or remembered. With
 * `--thread KEY` (a4h's continuity, asked for by name) the contextId is the thread's, derived from the
 * identity secret, the handle and KEY, so each run with the same KEY continues the same conversation,
 * and a task the agent left waiting on it is found and answered, as `chat` does.
 */
export async function turnPlan(
  flags: ThreadFlags,
  parts: readonly OutgoingPart[],
  env: NodeJS.ProcessEnv,
  policy: TurnPolicyInput,
): Promise<{ request: TurnRequest; ladder: LadderOptions }> {
  const texts = parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []));
  const onlyText = parts.length === 1 && parts[0]!.kind === 'text' && parts[0]!.mediaType === undefined;
  const request: TurnRequest = { text: texts.join('\n'), ...(onlyText ? {} : { parts }) };
  const taskId = flags['task-id'] === undefined ? undefined : nonEmpty('task-id', flags['task-id'], '');
  if (taskId !== undefined) request.taskId = taskId;
  if (flags['message-id'] !== undefined) request.messageId = nonEmpty('message-id', flags['message-id'], '');
  if (flags.thread === undefined) {
    if (flags.handle !== undefined) throw new UsageError('--handle names the thread of --thread: give --thread too');
    if (flags['context-id'] !== undefined) request.contextId = nonEmpty('context-id', flags['context-id'], '');
    return { request, ladder: { policy } };
  }
  if (flags['context-id'] !== undefined) throw new UsageError('--thread derives the contextId: give --thread or --context-id, not both');
  const secret = env[IDENTITY_SECRET_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(
      `--thread derives the contextId from ${IDENTITY_SECRET_ENV}, which is not set (a thread would not continue in the next run)`,
    );
  }
  const handle = nonEmpty('handle', flags.handle, DEFAULT_HANDLE);
  const thread = nonEmpty('thread', flags.thread, '');
  request.contextId = await deriveContextId(secret, handle, thread);
  // The thread under the secrets A4H_PREVIOUS_IDENTITY_SECRETS names: found where the agent has it.
  const previous = previousSecretsFromEnv(env[PREVIOUS_IDENTITY_SECRETS_ENV]);
  const previousContexts = (await Promise.all(previous.map((old) => deriveContextId(old, handle, thread)))).filter(
    (id) => id !== request.contextId,
  );
  return {
    request,
    ladder: {
      policy,
      lookForWaitingTask: taskId === undefined,
      taskFromCaller: taskId !== undefined,
      ...(previousContexts.length === 0 ? {} : { previousContexts }),
    },
  };
}
