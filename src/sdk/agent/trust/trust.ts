import { A2AError } from '../../../errors.js';
import type { Logger } from '../../../logger.js';
import { redactQuery } from '../../../port/card-url.js';
import type { CardSignature } from '../../../port/card.js';
import { checkCard, type CheckedCard } from '../card/schema.js';
import { signedForm, unsignedFields } from './canonical.js';
import { jwksError } from './jwks-fetch.js';
import type { TrustedKey } from './jwks.js';
import { JwksSource } from './jwks-source.js';
import { checkTrust, normaliseJwksUrl, requiresSignedCard, type CheckedTrust, type TrustOption } from './options.js';
import { verifyCard, type SignatureFailure } from './verify-card.js';

/** The most cards remembered for "warned once". */
const MAX_WARNED = 1_024;

/** The share of the card deadline the wait for keys may take: up to its last tenth (left for the answer). */
const JWKS_SHARE = 0.9;
/** Where no signed card is required, the wait for keys takes at most this share of the card deadline. */
const JWKS_SHARE_NOT_REQUIRED = 0.2;

/** The card deadline the wait for a card's keys fits in, and the clock it is measured on. */
export interface TrustBounds {
  /** The card deadline (`policy.cardTimeoutMs`), counted from the start of the card's load. Default 10 s. */
  cardTimeoutMs?: number;
  /** A monotonic clock in ms (default `performance.now`). */
  monotonic?: () => number;
}

/**
 * The `trust` option at work: the verdict on each card's signatures, against the trusted keys
 * (inline and at the trusted JWKS URLs), waited for inside the card deadline; the rule of which
 * agents must have a signed card; a verified card read as it was signed; and one warning per card
 * whose signature is invalid or could not be checked while it is still used, or whose unsigned
 * fields are ignored.
 */
export class CardTrust {
  private readonly trust: CheckedTrust;
  private readonly source: JwksSource;
  private readonly warned = new Set<string>();
  private readonly cardTimeoutMs: number;
  /** The monotonic clock the card deadline is measured on: a card's load notes its start with it. */
  readonly monotonic: () => number;

  constructor(
    option: TrustOption | undefined,
    fetchImpl: typeof fetch,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    bounds: TrustBounds = {},
  ) {
    this.trust = checkTrust(option);
    this.source = new JwksSource(fetchImpl, this.trust, clock);
    const cardTimeoutMs = bounds.cardTimeoutMs ?? 10_000;
    if (!(cardTimeoutMs > 0 && Number.isFinite(cardTimeoutMs))) {
      throw new A2AError({ kind: 'config', operation: 'options', message: 'cardTimeoutMs must be a positive number of milliseconds' });
    }
    this.cardTimeoutMs = cardTimeoutMs;
    this.monotonic = bounds.monotonic ?? (() => performance.now());
  }

  /**
   * Checks the card fetched from `cardUrl` (its JSON as served; its load started at `since` on the
   * {@link monotonic} clock) and enforces the rule: resolves to the verdict, or rejects with a `card`
   * error when the agent must have a signed card and this one's did not verify. An invalid signature,
   * or one that could not be checked, is otherwise logged once per card.
   */
  async check(
    card: Record<string, unknown>,
    shape: '1.0' | '0.3',
    cardUrl: string,
    signal: AbortSignal,
    since: number = this.monotonic(),
  ): Promise<CardSignature> {
    const required = requiresSignedCard(this.trust, cardUrl);
    const { verdict, cause } = await this.verdictOf(card, shape, signal, this.waitEnd(required, since));
    if (verdict.state === 'verified' || (verdict.state === 'unchecked' && verdict.reason === undefined)) return verdict;
    if (required) throw refusal(cardUrl, verdict, cause);
    if (verdict.state !== 'unsigned') this.warnOnce(card, cardUrl, verdict);
    return verdict;
  }

  /**
   * The card a verified card is used as: its signed form, validated (so what its signatures do not
   * cover decides nothing: no scheme, requirement, interface or flag); the fields left out are
   * named in one warning per card (names only).
   */
  asSigned(card: Record<string, unknown>, shape: '1.0' | '0.3', cardUrl: string): CheckedCard {
    const form = signedForm(card, shape);
    const ignored = unsignedFields(card, form);
    if (ignored.length > 0 && this.firstTime('unsigned', card, cardUrl)) {
      this.logger.warn(
        { agent: redactQuery(cardUrl), ignored },
        'the agent card has fields its signatures do not cover; they are ignored (the card is used as it was signed)',
      );
    }
    return checkCard(form, cardUrl);
  }

  /**
   * When the wait for keys at JWKS URLs ends, on the monotonic clock: before the last tenth of the
   * card deadline; and where no signed card is required, after a fifth of it (or `jwksTimeoutMs`,
   * whichever is shorter) at most, so a JWKS that does not answer delays the turn only that long.
   */
  private waitEnd(required: boolean, since: number): number {
    const end = since + this.cardTimeoutMs * JWKS_SHARE;
    if (required) return end;
    return Math.min(end, this.monotonic() + Math.min(this.trust.timeoutMs, this.cardTimeoutMs * JWKS_SHARE_NOT_REQUIRED));
  }

  private async verdictOf(
    card: Record<string, unknown>,
    shape: '1.0' | '0.3',
    signal: AbortSignal,
    waitEnd: number,
  ): Promise<{ verdict: CardSignature; cause?: unknown }> {
    const signed = Array.isArray(card['signatures']) && card['signatures'].length > 0;
    if (!signed) return { verdict: { state: 'unsigned' } };
    if (!this.trust.configured) return { verdict: { state: 'unchecked' } };
    return verifyCard(card, shape, (kid, jku, s) => this.keysFor(kid, jku, s, waitEnd), this.clock(), signal);
  }

  /** The trusted keys with `kid`: inline ones first, then at the signature's `jku` when it is trusted, then at the other trusted URLs. */
  private async keysFor(
    kid: string,
    jku: string | undefined,
    signal: AbortSignal,
    waitEnd: number,
  ): Promise<{ keys: TrustedKey[] } | SignatureFailure> {
    const inline = this.trust.keys.filter((key) => key.kid === kid);
    if (inline.length > 0) return { keys: inline };
    const named = jku === undefined ? undefined : normaliseJwksUrl(jku);
    const jkuTrusted = named !== undefined && this.trust.urls.includes(named);
    const urls = jkuTrusted ? [named, ...this.trust.urls.filter((url) => url !== named)] : this.trust.urls;
    let unavailable: SignatureFailure | undefined;
    for (const url of urls) {
      try {
        const left = waitEnd - this.monotonic();
        if (left <= 0) throw jwksError(url, new Error('no time left for it within the card deadline'));
        const keys = (await this.source.keysAt(url, signal, left)).filter((key) => key.kid === kid);
        if (keys.length > 0) return { keys };
      } catch (cause) {
        if (signal.aborted) throw cause;
        unavailable ??= { reason: 'keys-unavailable', detail: `keys unavailable: ${(cause as Error).message}`, cause };
      }
    }
    if (unavailable) return unavailable;
    const quotedKid = JSON.stringify(kid.length > 100 ? `${kid.slice(0, 100)}…` : kid);
    if (jku !== undefined && !jkuTrusted) {
      const shown = named === undefined ? 'a URL this client does not fetch' : redactQuery(named);
      return {
        reason: 'untrusted-jku',
        detail: `jku not trusted: key ${quotedKid} is to be found at ${shown}, which is not a trusted JWKS URL, and no trusted key has that kid`,
      };
    }
    return { reason: 'unknown-key', detail: `unknown key: no trusted key has the kid ${quotedKid}` };
  }

  private warnOnce(
    card: Record<string, unknown>,
    cardUrl: string,
    verdict: Extract<CardSignature, { state: 'invalid' | 'unchecked' }>,
  ): void {
    if (!this.firstTime(verdict.state, card, cardUrl)) return;
    this.logger.warn(
      { agent: redactQuery(cardUrl), signature: verdict.reason, detail: verdict.detail },
      verdict.state === 'invalid'
        ? "the agent card's signature is not valid; the card is used (a signed card is not required for this agent)"
        : "the agent card's signature could not be checked (its keys could not be had); the card is used (a signed card is not required for this agent)",
    );
  }

  /** Whether this is the first warning of `kind` about this card (its URL and signatures); bounded. */
  private firstTime(kind: string, card: Record<string, unknown>, cardUrl: string): boolean {
    const signatures = (card['signatures'] as { signature?: unknown }[]).map((s) => String(s?.signature)).join(',');
    const id = `${kind}\n${cardUrl}\n${signatures}`;
    if (this.warned.has(id)) return false;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(id);
    return true;
  }
}

/** The `card` error of a card whose agent must have a signed one: why, in its message and its `signature`. */
function refusal(cardUrl: string, verdict: Exclude<CardSignature, { state: 'verified' }>, cause: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  const why = verdict.state === 'unsigned' ? 'no signature: the card is not signed' : (verdict.detail ?? 'the card was not checked');
  return new A2AError({
    kind: 'card',
    operation: 'card',
    agent: shown,
    retryable: false,
    message: `a signed agent card is required for this agent (requireSignedCard): ${why} (${shown})`,
    signature: verdict,
    cause,
  });
}
