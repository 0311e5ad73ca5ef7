import { SendMessageRequest, SubscribeToTaskRequest } from '@a2a-js/sdk';
import type { OutgoingMessage } from '../../port/types.js';
import { legacyParts } from '../parts-out.js';
import type { ResolvedAgent } from '../resolve-agent.js';
import type { StreamRequest } from './json-rpc.js';

/**
 * The streaming send as the agent's generation writes it, byte for byte what the SDK's transports
 * send: v1.0 `SendStreamingMessage` through the SDK's codec, v0.3 `message/stream` with `kind`s.
 */
export function streamRequest(resolved: ResolvedAgent, v1: SendMessageRequest, message: OutgoingMessage, messageId: string): StreamRequest {
  if (!resolved.legacy) {
    const params = SendMessageRequest.toJSON({ ...v1, tenant: resolved.summary.tenant ?? '' });
    return { endpoint: resolved.endpoint, method: 'SendStreamingMessage', params, version: '1.0' };
  }
  const wire: Record<string, unknown> = { kind: 'message', messageId, role: 'user', parts: legacyParts(message) };
  if (message.contextId !== undefined) wire['contextId'] = message.contextId;
  if (message.taskId !== undefined) wire['taskId'] = message.taskId;
  const configuration = { blocking: true, acceptedOutputModes: v1.configuration?.acceptedOutputModes ?? [], historyLength: 1 };
  return { endpoint: resolved.endpoint, method: 'message/stream', params: { message: wire, configuration }, version: '0.3' };
}

/** The resubscribe: v1.0 `SubscribeToTask`, v0.3 `tasks/resubscribe`. */
export function resubscribeRequest(resolved: ResolvedAgent, taskId: string): StreamRequest {
  if (!resolved.legacy) {
    const params = SubscribeToTaskRequest.toJSON({ tenant: resolved.summary.tenant ?? '', id: taskId });
    return { endpoint: resolved.endpoint, method: 'SubscribeToTask', params, version: '1.0', taskId };
  }
  return { endpoint: resolved.endpoint, method: 'tasks/resubscribe', params: { id: taskId }, version: '0.3', taskId };
}
