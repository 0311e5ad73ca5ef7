import { A2AError, type A2AOperation, type AuthDetails } from '../../../errors.js';
import type { ClientCertificateRefusal } from '../../../network-cause.js';
import type { SecuritySchemeInfo } from '../../../port/card.js';
import { describeScheme } from './security.js';

/** The longest `WWW-Authenticate` challenge kept. */
const MAX_CHALLENGE = 300;

/** The details of an auth failure: the card's schemes as messages name them, what was sent, the challenge. */
export function authDetails(schemes: readonly SecuritySchemeInfo[] | undefined, sent: string, challenge?: string | null): AuthDetails {
  const details: AuthDetails = { sent: sent || 'none' };
  if (schemes !== undefined) details.schemes = schemes.map(describeScheme);
  if (challenge) details.challenge = challenge.replace(/[\x00-\x1f\x7f]/g, ' ').slice(0, MAX_CHALLENGE);
  return details;
}

/** `; the card declares …; sent: …` */
function explanation(details: AuthDetails): string {
  if (details.schemes === undefined) return `; the agent card itself is behind authentication; sent: ${details.sent}`;
  const declared = details.schemes.length ? details.schemes.join(', ') : 'no security scheme';
  return `; the card declares ${declared}; sent: ${details.sent}`;
}

/** An HTTP 401/403 as an `auth` error: not retryable, with what the card asks for, what was sent and the challenge. */
export function httpAuthError(status: number, details: AuthDetails): A2AError {
  const what = status === 401 ? 'the agent refused the credentials' : 'the agent denied access with the credentials';
  const challenge = details.challenge === undefined ? '' : `, WWW-Authenticate: ${details.challenge}`;
  return new A2AError({ kind: 'auth', status, auth: details, message: `${what} (HTTP ${status}${challenge})${explanation(details)}` });
}

/** An `auth` error made without the agent's context (a JSON-RPC code), completed with it; one that has its details is kept. */
export function explainAuth(error: A2AError, details: AuthDetails | undefined): A2AError {
  if (error.auth !== undefined || details === undefined) return error;
  return new A2AError({
    kind: 'auth',
    retryable: false,
    auth: details,
    message: `${error.message}${explanation(details)}`,
    ...(error.operation === undefined ? {} : { operation: error.operation }),
    ...(error.agent === undefined ? {} : { agent: error.agent }),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.grpcCode === undefined ? {} : { grpcCode: error.grpcCode }),
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}

/** A challenge as kept: withheld when it repeats a value that was sent (an agent could echo one). */
export function safeChallenge(challenge: string | null, values: readonly string[]): string | undefined {
  if (!challenge) return undefined;
  return values.some((value) => value !== '' && challenge.includes(value))
    ? '(withheld: it repeats a credential that was sent)'
    : challenge;
}

const CERTIFICATE_SENT = {
  none: 'no client certificate',
  refused: 'a client certificate',
  unknown: 'not known (the TLS alert does not say)',
  closed: 'a client certificate',
} as const;

/**
 * The agent's refusal of the TLS handshake for the client certificate (mutual TLS: none was sent, or
 * the one sent was refused) as an `auth` error, never retryable: another try with the same
 * certificate meets the same refusal. `what` names the call (`stream to https://…`).
 */
export function clientCertificateError(
  refusal: ClientCertificateRefusal,
  what: string,
  base: { operation: A2AOperation; agent: string; cause: unknown },
): A2AError {
  return new A2AError({
    ...base,
    kind: 'auth',
    retryable: false,
    auth: { sent: CERTIFICATE_SENT[refusal.certificate] },
    message: `${what}: ${refusal.phrase} (${refusal.code})`,
  });
}
