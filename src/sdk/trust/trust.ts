import { A2AError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { redactQuery } from '../../port/card-url.js';
import type { CardSignature } from '../../port/types.js';
import type { TrustedKey } from './jwks.js';
import { JwksSource } from './jwks-source.js';
import { checkTrust, normaliseJwksUrl, requiresSignedCard, type CheckedTrust, type TrustOption } from './options.js';
import { verifyCard, type SignatureFailure } from './verify-card.js';

/** The most cards remembered for "warned once". */
const MAX_WARNED = 1_024;

/**
 * The `trust` option at work: the verdict on each card's signatures, against the trusted keys
 * (inline and at the trusted JWKS URLs); the rule of which agents must have a signed card; and the
 * one warning per card whose signature is invalid while it is still used.
 */
export class CardTrust {
  private readonly trust: CheckedTrust;
  private readonly source: JwksSource;
  private readonly warned = new Set<string>();

  constructor(
    option: TrustOption | undefined,
    fetchImpl: typeof fetch,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.trust = checkTrust(option);
    this.source = new JwksSource(fetchImpl, this.trust, clock);
  }

  /**
   * Checks the card fetched from `cardUrl` (its JSON as served) and enforces the rule: resolves to
   * the verdict, or rejects with a `card` error when the agent must have a signed card and this
   * one's did not verify. An invalid signature otherwise is logged once per card.
   */
  async check(card: Record<string, unknown>, shape: '1.0' | '0.3', cardUrl: string, signal: AbortSignal): Promise<CardSignature> {
    const { verdict, cause } = await this.verdictOf(card, shape, signal);
    if (verdict.state === 'verified' || verdict.state === 'unchecked') return verdict;
    if (requiresSignedCard(this.trust, cardUrl)) throw refusal(cardUrl, verdict, cause);
    if (verdict.state === 'invalid') this.warnOnce(card, cardUrl, verdict);
    return verdict;
  }

  private async verdictOf(
    card: Record<string, unknown>,
    shape: '1.0' | '0.3',
    signal: AbortSignal,
  ): Promise<{ verdict: CardSignature; cause?: unknown }> {
    const signed = Array.isArray(card['signatures']) && card['signatures'].length > 0;
    if (!signed) return { verdict: { state: 'unsigned' } };
    if (!this.trust.configured) return { verdict: { state: 'unchecked' } };
    return verifyCard(card, shape, (kid, jku, s) => this.keysFor(kid, jku, s), this.clock(), signal);
  }

  /** The trusted keys with `kid`: inline ones first, then at the signature's `jku` when it is trusted, then at the other trusted URLs. */
  private async keysFor(kid: string, jku: string | undefined, signal: AbortSignal): Promise<{ keys: TrustedKey[] } | SignatureFailure> {
    const inline = this.trust.keys.filter((key) => key.kid === kid);
    if (inline.length > 0) return { keys: inline };
    const named = jku === undefined ? undefined : normaliseJwksUrl(jku);
    const jkuTrusted = named !== undefined && this.trust.urls.includes(named);
    const urls = jkuTrusted ? [named, ...this.trust.urls.filter((url) => url !== named)] : this.trust.urls;
    let unavailable: SignatureFailure | undefined;
    for (const url of urls) {
      try {
        const keys = (await this.source.keysAt(url, signal)).filter((key) => key.kid === kid);
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

  private warnOnce(card: Record<string, unknown>, cardUrl: string, verdict: Extract<CardSignature, { state: 'invalid' }>): void {
    const signatures = (card['signatures'] as { signature?: unknown }[]).map((s) => String(s?.signature)).join(',');
    const id = `${cardUrl}\n${signatures}`;
    if (this.warned.has(id)) return;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(id);
    this.logger.warn(
      { agent: redactQuery(cardUrl), signature: verdict.reason, detail: verdict.detail },
      "the agent card's signature is not valid; the card is used (a signed card is not required for this agent)",
    );
  }
}

/** The `card` error of a card whose agent must have a signed one: why, in its message and its `signature`. */
function refusal(cardUrl: string, verdict: Exclude<CardSignature, { state: 'verified' | 'unchecked' }>, cause: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  const why = verdict.state === 'unsigned' ? 'no signature: the card is not signed' : verdict.detail;
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
