/**
 * Where an agent posts a thread's task updates and the credential it sends with them: what a message
 * asks of the agent (`configuration.taskPushNotificationConfig`, v0.3 `pushNotificationConfig`) or
 * a config created on a task says. The agent sends `token` as `Authorization: Bearer` (A2A v1.0
 * `authentication`) or as `X-A2A-Notification-Token` (the v0.3 `token`); both are set.
 */
export interface PushTarget {
  /** The receiver's URL, as agents reach it. */
  url: string;
  /** The credential the receiver checks: it names the thread. Never logged. */
  token: string;
  /** The config's id at the agent: one per receiver, so asking again replaces it rather than adding one. */
  id: string;
}
