import { z } from 'zod';
import { A2AError } from '../errors.js';

const ms = z.number().int().positive().finite();

const backoffShape = {
  /** Delay before the first retry. */
  initialDelayMs: ms,
  /** The delay grows by this factor per attempt… */
  factor: z.number().min(1).max(10),
  /** …up to this cap. */
  maxDelayMs: ms,
  /** Up to this fraction of each delay is taken off at random (0: none, 1: full jitter). */
  jitter: z.number().min(0).max(1),
};

/** The schema of every bound and backoff, with the defaults (all times in milliseconds). */
export const turnPolicySchema = z.object({
  /** Fetching the agent card. */
  cardTimeoutMs: ms.default(10_000),
  /** A blocking `SendMessage` until the agent answers. Agents think for long stretches. */
  sendTimeoutMs: ms.default(300_000),
  /** A stream (or a resubscribe) until its first event. */
  firstEventTimeoutMs: ms.default(30_000),
  /** The longest quiet gap between two stream events. Generous: tool calls and thinking are quiet. */
  idleTimeoutMs: ms.default(300_000),
  /** How long an AUTH_REQUIRED stream is kept open for the agent to resume by itself. */
  authWaitMs: ms.default(600_000),
  /** The whole turn, from subscribe to the end event. */
  turnTimeoutMs: ms.default(1_800_000),
  /** The CancelTask sent when a turn is abandoned. */
  cancelTimeoutMs: ms.default(5_000),
  /** The longest reply kept, in characters; a longer one ends the turn with a protocol error. */
  maxReplyChars: z.number().int().positive().max(1e9).default(4_000_000),
  reconnect: z
    .object({
      /** Resubscribe attempts in a row without an event before falling back to polling. */
      maxAttempts: z.number().int().min(0).max(100).default(5),
      /** Time since the break after which no further resubscribe is tried. */
      maxElapsedMs: ms.default(60_000),
      initialDelayMs: backoffShape.initialDelayMs.default(500),
      factor: backoffShape.factor.default(2),
      maxDelayMs: backoffShape.maxDelayMs.default(10_000),
      jitter: backoffShape.jitter.default(0.5),
    })
    .prefault({}),
  poll: z
    .object({
      initialDelayMs: backoffShape.initialDelayMs.default(1_000),
      factor: backoffShape.factor.default(1.5),
      maxDelayMs: backoffShape.maxDelayMs.default(15_000),
      jitter: backoffShape.jitter.default(0.2),
      /** One `GetTask` request. */
      requestTimeoutMs: ms.default(15_000),
      /** Failed `GetTask` requests in a row before the turn errors. */
      maxErrors: z.number().int().min(0).max(100).default(3),
      /** A task that shows no change for this long ends the turn with a timeout. */
      staleAfterMs: ms.default(300_000),
    })
    .prefault({}),
});

/** Every bound and backoff of a turn, resolved (see {@link resolvePolicy} for the defaults). */
export type TurnPolicy = z.output<typeof turnPolicySchema>;

/** Options as callers give them: any subset, nested objects partial too. */
export type TurnPolicyInput = z.input<typeof turnPolicySchema>;

/** The backoff settings shared by reconnect and poll. */
export interface Backoff {
  initialDelayMs: number;
  factor: number;
  maxDelayMs: number;
  jitter: number;
}

/** The defaults, resolved once. */
export const DEFAULT_POLICY: TurnPolicy = turnPolicySchema.parse({});

/**
 * Resolves caller options against the defaults, in one place. Throws an {@link A2AError} of kind
 * `config` naming the first bad field.
 */
export function resolvePolicy(input: TurnPolicyInput | undefined): TurnPolicy {
  if (input === undefined) return DEFAULT_POLICY;
  const result = turnPolicySchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || '(options)';
  throw new A2AError({
    kind: 'config',
    operation: 'options',
    message: `invalid turn option ${field}: ${issue?.message ?? 'invalid'}`,
    cause: result.error,
  });
}

/**
 * The delay before retry number `attempt` (1-based): exponential, capped, with jitter taken off
 * from `random()` in [0, 1). Without jitter it is monotone in `attempt` and never above the cap.
 */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number): number {
  const base = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - backoff.jitter * random()));
}
