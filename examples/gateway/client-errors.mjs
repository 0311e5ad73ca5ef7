/**
 * How the gateway's client gives up (client-follow.mjs): a budget passed without progress, or a refusal
 * that asking again would not change. Each error carries where to go on from: the reply's position, or
 * the message's id and when it was first sent, which the command prints as its flags (client.mjs).
 */

/** The client gave up (its budget passed without progress): what to resume from. */
export class GatewayUnreachable extends Error {
  /** @param {string} message @param {{ lastEventId?: string; messageId?: string; sentAt?: number }} where */
  constructor(message, where) {
    super(message);
    this.name = 'GatewayUnreachable';
    this.lastEventId = where.lastEventId;
    this.messageId = where.messageId;
    this.sentAt = where.messageId === undefined ? undefined : where.sentAt;
  }
}

/** The gateway refused the request (4xx): asking again would not help; a 401 (a token expired) with a fresh token may. */
export class GatewayRefused extends GatewayUnreachable {
  /** @param {number} status @param {string} message @param {{ lastEventId?: string; messageId?: string; sentAt?: number }} where */
  constructor(status, message, where) {
    super(`the gateway refused: ${status} ${message}`, where);
    this.name = 'GatewayRefused';
    this.status = status;
  }
}
