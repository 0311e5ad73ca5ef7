import { throwError, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import type { A2APort } from './port.js';

/** How the agent authenticates itself to the webhook (A2A `AuthenticationInfo`). Never logged. */
export interface PushAuthentication {
  /** The HTTP authentication scheme, e.g. `Bearer`. */
  scheme: string;
  /** The credentials of that scheme, when any. */
  credentials?: string;
}

/** A task's push-notification config as the agent keeps it (A2A `TaskPushNotificationConfig`). */
export interface PushConfig {
  /** The config's id within its task (the agent picks one when the caller gave none). */
  id: string;
  /** The task it belongs to. */
  taskId: string;
  /** The webhook the agent posts the task's updates to. */
  url: string;
  /** The token the agent sends with each notification, when one was set. */
  token?: string;
  /** How the agent authenticates to the webhook, when set. */
  authentication?: PushAuthentication;
}

/** A config to create: its id is optional (the agent assigns one). */
export type NewPushConfig = Omit<PushConfig, 'id'> & { id?: string };

/** One page of a task's push-notification configs. */
export interface PushConfigPage {
  /** The configs of the page, in the agent's order. */
  configs: PushConfig[];
  /** The token of the next page; absent on the last page. */
  nextPageToken?: string;
}

/**
 * The push-notification config calls of one agent (A2A's Create / Get / List / Delete
 * TaskPushNotificationConfig), kept beside {@link A2APort} rather than in it: a turn never needs them,
 * the command line's `task push-config` does. Each call is cold and bounded by its subscription, like
 * the port's; failures are `A2AError`s.
 */
export interface PushConfigPort {
  /** Creates (or replaces, for an id the task already has) a config: the config as the agent keeps it. */
  createPushConfig(config: NewPushConfig): Observable<PushConfig>;
  /** One config of a task. */
  getPushConfig(taskId: string, configId: string): Observable<PushConfig>;
  /** A page of a task's configs (`pageSize` 1–100, the agent's default when absent). */
  listPushConfigs(taskId: string, page?: { pageSize?: number; pageToken?: string }): Observable<PushConfigPage>;
  /** Deletes one config: `true`, then complete. */
  deletePushConfig(taskId: string, configId: string): Observable<true>;
}

/** `port` as a {@link PushConfigPort}, or an `unsupported` error (as an Observable's) for a port without the calls. */
export function pushConfigsOf(port: A2APort): PushConfigPort {
  const calls = port as Partial<PushConfigPort>;
  if (typeof calls.createPushConfig === 'function') return port as A2APort & PushConfigPort;
  const refuse = (): Observable<never> =>
    throwError(
      () => new A2AError({ kind: 'unsupported', operation: 'push-config', message: 'the port has no push-notification config calls' }),
    );
  return { createPushConfig: refuse, getPushConfig: refuse, listPushConfigs: refuse, deletePushConfig: refuse };
}
