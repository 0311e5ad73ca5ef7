import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { NewPushConfig, PushConfig } from '../../../port/push-configs.js';
import type { PushTarget } from '../../../port/types.js';

/** A push-notification config as the SDK takes it (the interface's tenant is the SDK's to put on it). */
export function toSdkPushConfig(config: NewPushConfig): TaskPushNotificationConfig {
  return {
    tenant: '',
    id: config.id ?? '',
    taskId: config.taskId,
    url: config.url,
    token: config.token ?? '',
    authentication: config.authentication
      ? { scheme: config.authentication.scheme, credentials: config.authentication.credentials ?? '' }
      : undefined,
  };
}

/** The SDK's config as the port gives it: empty strings (the proto's absent values) left out. */
export function fromSdkPushConfig(config: TaskPushNotificationConfig): PushConfig {
  const out: PushConfig = { id: config.id, taskId: config.taskId, url: config.url };
  if (config.token) out.token = config.token;
  const auth = config.authentication;
  if (auth?.scheme)
    out.authentication = auth.credentials ? { scheme: auth.scheme, credentials: auth.credentials } : { scheme: auth.scheme };
  return out;
}

/**
 * A push receiver's target as the config a message carries (v1.0 `taskPushNotificationConfig`, its
 * task id empty as the spec asks): the token both as `authentication` (`Authorization: Bearer`, what
 * 1.x senders send) and as `token` (`X-A2A-Notification-Token`, what 0.3 senders send).
 */
export function sdkPushTarget(target: PushTarget): TaskPushNotificationConfig {
  return {
    tenant: '',
    id: target.id,
    taskId: '',
    url: target.url,
    token: target.token,
    authentication: { scheme: 'Bearer', credentials: target.token },
  };
}

/** The same target as v0.3's `pushNotificationConfig` (`authentication.schemes`, a list). */
export function legacyPushTarget(target: PushTarget): Record<string, unknown> {
  return {
    id: target.id,
    url: target.url,
    token: target.token,
    authentication: { schemes: ['Bearer'], credentials: target.token },
  };
}
