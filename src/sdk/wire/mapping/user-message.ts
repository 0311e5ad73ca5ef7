import type { Message as SdkMessage } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import type { OutgoingMessage } from '../../../port/types.js';
import { sdkParts } from './parts-out.js';

/** The user's message: role user, its text part (then its files and data), its messageId (a fresh one when it has none), the thread's ids. */
export function userMessage(message: OutgoingMessage): SdkMessage {
  return {
    messageId: message.messageId ?? globalThis.crypto.randomUUID(),
    contextId: message.contextId ?? '',
    taskId: message.taskId ?? '',
    role: Role.ROLE_USER,
    parts: sdkParts(message),
    metadata: message.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}
