import { A2AError, type A2AOperation } from '../../errors.js';
import type { CardSummary } from '../../port/card.js';
import { PUSH_NOTIFICATION_NOT_SUPPORTED } from '../../port/codes.js';

/**
 * The error of a capability-gated call the agent's card does not offer, found before anything is sent
 * (the A2A CLI specification's §13.3; A2A §3.5): a push-notification config call to an agent whose card
 * does not say `capabilities.pushNotifications` is the protocol's PushNotificationNotSupportedError
 * (-32003), as the agent would answer. Undefined when the call may go (streaming falls back on its own;
 * the extended card is fetched only when the card offers it).
 */
export function capabilityMissing(summary: CardSummary, operation: A2AOperation): A2AError | undefined {
  if (operation !== 'push-config' || summary.pushNotifications !== false) return undefined;
  return new A2AError({
    kind: 'unsupported',
    operation,
    agent: summary.url,
    code: PUSH_NOTIFICATION_NOT_SUPPORTED,
    message: `push-config to ${summary.url}: the agent's card does not offer push notifications (capabilities.pushNotifications); nothing was sent`,
  });
}
