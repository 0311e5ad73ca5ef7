type Json = Record<string, unknown>;

/**
 * The messageId a status message made from a plain string carries while the SDK's translation (which
 * wants one) runs; `fromSdkMessage` reads it as no id at all, so two such messages are never taken for
 * chunks of one.
 */
export const STRING_STATUS_ID = 'a4h-a2a:status-string';

/**
 * A task status whose `message` is a plain string (`@reactive-agents/a2a` 0.9.0 sends the agent's
 * error so: `{ state: "failed", message: "…" }`), in place: the string becomes an agent message with
 * that one text part, in the shape of the result's generation (v0.3 `kind`s, or v1.0's). A status
 * message that is an object, or none, is left as it is.
 */
export function statusStringAsMessage(status: unknown, v1: boolean): boolean {
  if (typeof status !== 'object' || status === null) return false;
  const text = (status as Json)['message'];
  if (typeof text !== 'string') return false;
  (status as Json)['message'] = v1
    ? { role: 'ROLE_AGENT', messageId: STRING_STATUS_ID, parts: [{ text }] }
    : { kind: 'message', role: 'agent', messageId: STRING_STATUS_ID, parts: [{ kind: 'text', text }] };
  return true;
}

/**
 * The same for a result of either generation: a v0.3 task or status-update (`status`), or a v1.0
 * `{ task }` or `{ statusUpdate }` (its `status`), in place; true when one was made.
 */
export function statusStringsIn(result: Json): boolean {
  const inner = (key: string): unknown => {
    const value = result[key];
    return typeof value === 'object' && value !== null ? (value as Json)['status'] : undefined;
  };
  return (
    statusStringAsMessage(result['status'], false) ||
    statusStringAsMessage(inner('task'), true) ||
    statusStringAsMessage(inner('statusUpdate'), true)
  );
}
