import { SendMessageRequest, SubscribeToTaskRequest } from '@a2a-js/sdk';
import type { OutgoingMessage } from '../../../port/types.js';
import { legacyParts } from '../mapping/parts-out.js';
import { legacyPushTarget } from '../mapping/push-config.js';
import type { StreamRequest } from '../reader/json-rpc.js';
import type { AgentWire } from './transport.js';

/**
 * The streaming send as the agent's generation writes it, byte for byte what the SDK's transports
 * send: v1.0 `SendStreamingMessage` through the SDK's codec, v0.3 `message/stream` with `kind`s.
 */
export function streamRequest(wire: AgentWire, v1: SendMessageRequest, message: OutgoingMessage, messageId: string): StreamRequest {
  if (!wire.legacy) {
    const params = SendMessageRequest.toJSON({ ...v1, tenant: wire.tenant ?? '' }) as Record<string, unknown>;
    // A2A 1.1 (draft): not in the SDK's 1.0 codec, so written into its JSON; to 1.1 interfaces only.
    if (wire.version === '1.1') writeDraftFields(params, message);
    return { endpoint: wire.endpoint, method: 'SendStreamingMessage', params, version: wire.version };
  }
  const sent: Record<string, unknown> = { kind: 'message', messageId, role: 'user', parts: legacyParts(message) };
  if (message.contextId !== undefined) sent['contextId'] = message.contextId;
  if (message.taskId !== undefined) sent['taskId'] = message.taskId;
  if (message.metadata !== undefined) sent['metadata'] = message.metadata;
  const configuration: Record<string, unknown> = {
    blocking: true,
    acceptedOutputModes: v1.configuration?.acceptedOutputModes ?? [],
    historyLength: 1,
  };
  if (message.push !== undefined) configuration['pushNotificationConfig'] = legacyPushTarget(message.push);
  return { endpoint: wire.endpoint, method: 'message/stream', params: { message: sent, configuration }, version: '0.3' };
}

/** The resubscribe: v1.0 `SubscribeToTask`, v0.3 `tasks/resubscribe`. */
export function resubscribeRequest(wire: AgentWire, taskId: string): StreamRequest {
  if (!wire.legacy) {
    const params = SubscribeToTaskRequest.toJSON({ tenant: wire.tenant ?? '', id: taskId });
    return { endpoint: wire.endpoint, method: 'SubscribeToTask', params, version: wire.version, taskId };
  }
  return { endpoint: wire.endpoint, method: 'tasks/resubscribe', params: { id: taskId }, version: '0.3', taskId };
}

/**
 * What A2A 1.1 (draft) adds to a send, written into the SDK codec's JSON (`params`, changed in place):
 * `configuration.ifGenerationMatch` (#1810) and, on a message continuing a task, `message.elicitationIds`
 * (ADR-002, PR #2149).
 */
export function writeDraftFields(params: Record<string, unknown>, message: OutgoingMessage): void {
  if (message.ifGenerationMatch !== undefined) {
    params['configuration'] = { ...(params['configuration'] as object | undefined), ifGenerationMatch: String(message.ifGenerationMatch) };
  }
  const sent = params['message'] as Record<string, unknown> | undefined;
  if (message.elicitationIds !== undefined && message.elicitationIds.length > 0 && message.taskId !== undefined && sent !== undefined) {
    sent['elicitationIds'] = [...message.elicitationIds];
  }
}
