import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { NewPushConfig, PushConfig } from '../../../port/push-configs.js';

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
