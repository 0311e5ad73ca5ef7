import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SIGNED_API_KEY, SIGNED_MOUNTS, startSignedAgents, type SignedAgents } from '../../../../fixtures/agent-signed.js';
import { REPLY } from '../../../../fixtures/index.js';
import { A2AError } from '../../../../src/errors.js';
import type { Logger } from '../../../../src/logger.js';
import { createA2A } from '../../../../src/node/create-a2a.js';
import type { TurnEvent } from '../../../../src/port/events.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import type { TrustOption } from '../../../../src/sdk/agent/trust/options.js';
import { recordingLogger, requests } from '../../credentials-kit.js';
import { FAST, endOf } from '../../harness.js';
import { useAgent } from '../../../agent-rig.js';

// Signed agent cards end to end, against SDK agents on loopback whose cards the SDK signs: the verdict
// in the card summary, requireSignedCard refusing a card before anything is sent, the keys at JWKS URLs.

let fixtures: SignedAgents;
useAgent(startSignedAgents, (a) => (fixtures = a));

const SECRET = 'signed cards test identity secret 0123456789';
const url = (mount: string) => fixtures.agent.url(mount);
const trustInline = (extra: TrustOption = {}): TrustOption => ({ jwks: fixtures.trustedJwks, ...extra });
const client = (trust: TrustOption, logger?: Logger) =>
  createA2A({ identitySecret: SECRET, policy: FAST.policy, trust, ...(logger ? { logger } : {}) });

let threads = 0;
async function turn(a2a: ReturnType<typeof client>, mount: string, text = 'artifacts'): Promise<TurnEvent[] | A2AError> {
  return lastValueFrom(a2a.turn({ agent: url(mount), handle: 'h', thread: `t${threads++}`, text }).pipe(toArray())).catch(
    (error: A2AError) => error,
  );
}

/** The JWKS fetches since `from`, by file. */
const jwksFetches = (from: number) =>
  fixtures.agent.received
    .slice(from)
    .filter((r) => r.mount === '/keys/')
    .map((r) => r.method);

/** A turn to `mount` under requireSignedCard: the card error, and proof that nothing but the card fetch reached the agent. */
async function refused(mount: string, trust: TrustOption = trustInline({ requireSignedCard: true })): Promise<A2AError> {
  const from = fixtures.agent.received.length;
  const a2a = client(trust);
  try {
    const result = await turn(a2a, mount);
    if (!(result instanceof A2AError)) throw new Error(`the turn ended ${JSON.stringify(result.at(-1))}`);
    expect(result).toMatchObject({ kind: 'card', retryable: false, operation: 'card' });
    const { card, calls } = requests(fixtures.agent, mount, from);
    expect(card.length).toBeGreaterThan(0);
    expect(calls).toEqual([]); // no message, no ListTasks, nothing
    return result;
  } finally {
    await a2a.close();
  }
}

describe('a card signed by the SDK (v1.0)', () => {
  it('verified by the trusted key: in the summary, and a turn under requireSignedCard completes', async () => {
    const a2a = client(trustInline({ requireSignedCard: true }));
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.signed)))).signature).toEqual({ state: 'verified', kid: 'trusted' });
      const events = await turn(a2a, SIGNED_MOUNTS.signed);
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    } finally {
      await a2a.close();
    }
  });

  it('a v0.3 card signed over its JSON: verified, and its agent answers', async () => {
    const a2a = client(trustInline({ requireSignedCard: true }));
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.v03)))).signature).toEqual({ state: 'verified', kid: 'trusted' });
      const events = await turn(a2a, SIGNED_MOUNTS.v03);
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed' });
    } finally {
      await a2a.close();
    }
  });
});

describe('requireSignedCard: the card error says why, and nothing is sent to the agent', () => {
  it('a field changed after signing: bad signature', async () => {
    const error = await refused(SIGNED_MOUNTS.tampered);
    expect(error.message).toMatch(/^a signed agent card is required for this agent \(requireSignedCard\): bad signature: /);
    expect(error.signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
  });

  it('signed by a key nobody trusts: unknown key', async () => {
    const error = await refused(SIGNED_MOUNTS.unknown);
    expect(error.message).toContain('unknown key: no trusted key has the kid "unknown"');
    expect(error.signature).toMatchObject({ reason: 'unknown-key' });
  });

  it('unsigned: no signature', async () => {
    const error = await refused(SIGNED_MOUNTS.unsigned);
    expect(error.message).toContain('no signature: the card is not signed');
    expect(error.signature).toEqual({ state: 'unsigned' });
  });

  it('an expired key: expired key', async () => {
    const error = await refused(SIGNED_MOUNTS.expired);
    expect(error.message).toContain('expired key: key "expired" expired at 2001-09-09T01:46:40.000Z');
  });

  it('a jku that is not a trusted JWKS URL: refused, and the URL is never fetched', async () => {
    const from = fixtures.agent.received.length;
    const error = await refused(SIGNED_MOUNTS.jku);
    expect(error.signature).toMatchObject({ reason: 'untrusted-jku' });
    expect(error.message).toContain(fixtures.jkuUrl);
    expect(jwksFetches(from)).toEqual([]);
  });

  it('a trusted JWKS URL that fails: the card error names it (keys unavailable), with the cause', async () => {
    const error = await refused(SIGNED_MOUNTS.signed, { jwksUrls: [fixtures.brokenJwksUrl], requireSignedCard: true });
    expect(error.message).toContain(`keys unavailable: the JWKS at ${fixtures.brokenJwksUrl} could not be had: HTTP 500`);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('a trusted JWKS URL that never answers: keys unavailable after jwksTimeoutMs', async () => {
    const error = await refused(SIGNED_MOUNTS.signed, { jwksUrls: [fixtures.stallJwksUrl], requireSignedCard: true, jwksTimeoutMs: 200 });
    expect(error.message).toContain('could not be had: no answer within 200 ms');
  });

  it('a JWKS that never answers: the wait fits inside the card deadline, whatever jwksTimeoutMs says (a card error, not a timeout)', async () => {
    for (const jwksTimeoutMs of [undefined, 600_000]) {
      const from = fixtures.agent.received.length;
      const trust = { jwksUrls: [fixtures.stallJwksUrl], requireSignedCard: true, ...(jwksTimeoutMs ? { jwksTimeoutMs } : {}) };
      const a2a = createA2A({ identitySecret: SECRET, policy: { ...FAST.policy, cardTimeoutMs: 300 }, trust });
      try {
        const error = await turn(a2a, SIGNED_MOUNTS.signed);
        expect(error).toMatchObject({ kind: 'card', retryable: false, signature: { state: 'unchecked', reason: 'keys-unavailable' } });
        expect((error as A2AError).message).toContain(`keys unavailable: the JWKS at ${fixtures.stallJwksUrl} could not be had: no answer`);
      } finally {
        await a2a.close();
      }
      expect(requests(fixtures.agent, SIGNED_MOUNTS.signed, from).calls).toEqual([]);
    }
  });

  it('a JWKS larger than jwksMaxBytes: keys unavailable', async () => {
    const error = await refused(SIGNED_MOUNTS.signed, { jwksUrls: [fixtures.trustedJwksUrl], requireSignedCard: true, jwksMaxBytes: 64 });
    expect(error.message).toContain('could not be had: it is larger than 64 bytes');
  });

  it('only where required: by origin or URL prefix', async () => {
    const a2a = client(trustInline({ requireSignedCard: [url(SIGNED_MOUNTS.tampered)] }));
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.unsigned)))).signature).toEqual({ state: 'unsigned' });
      await expect(firstValueFrom(a2a.card(url(SIGNED_MOUNTS.tampered)))).rejects.toMatchObject({ kind: 'card' });
    } finally {
      await a2a.close();
    }
  });
});

describe('without requireSignedCard', () => {
  it('a bad signature: the card is used, the verdict says why, and the logger hears it once per card', async () => {
    const logger = recordingLogger();
    const clock = { now: 1_700_000_000_000 };
    const ports = createSdkPorts({ trust: trustInline(), logger, clock: () => clock.now });
    const summary = await firstValueFrom(ports(url(SIGNED_MOUNTS.tampered)).card());
    expect(summary.signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
    clock.now += 2 * 3_600_000; // the card expired from the cache: fetched and checked again
    const from = fixtures.agent.received.length;
    await firstValueFrom(ports(url(SIGNED_MOUNTS.tampered)).card());
    expect(requests(fixtures.agent, SIGNED_MOUNTS.tampered, from).card).toHaveLength(1);
    await firstValueFrom(ports(url(SIGNED_MOUNTS.unknown)).card());
    const warnings = logger.lines.filter((line) => line.startsWith('warn '));
    expect(warnings).toHaveLength(2); // once for each card
    expect(warnings[0]).toContain("the agent card's signature is not valid; the card is used");
    expect(warnings[0]).toContain('"signature":"bad-signature"');
    expect(warnings[1]).toContain('"signature":"unknown-key"');
  });

  it('a turn to an agent whose card is badly signed completes', async () => {
    const a2a = client(trustInline());
    try {
      const events = await turn(a2a, SIGNED_MOUNTS.tampered);
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed' });
    } finally {
      await a2a.close();
    }
  });

  it('no keys configured: a signed card is unchecked, an unsigned one unsigned, and no JWKS is fetched', async () => {
    const from = fixtures.agent.received.length;
    const a2a = createA2A({ identitySecret: SECRET });
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.signed)))).signature).toEqual({ state: 'unchecked' });
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.jku)))).signature).toEqual({ state: 'unchecked' });
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.unsigned)))).signature).toEqual({ state: 'unsigned' });
    } finally {
      await a2a.close();
    }
    expect(jwksFetches(from)).toEqual([]);
  });
});

describe('keys at JWKS URLs', () => {
  it('an allow-listed jku: the key is fetched from it, and the verdict names the URL', async () => {
    const a2a = client({ jwksUrls: [fixtures.jkuUrl], requireSignedCard: true });
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.jku)))).signature).toEqual({
        state: 'verified',
        kid: 'jku',
        jwksUrl: fixtures.jkuUrl,
      });
    } finally {
      await a2a.close();
    }
  });

  it('fetched once for several cards (cached), with the client fetch, and again once jwksCacheMs has passed', async () => {
    const clock = { now: 1_700_000_000_000 };
    const ports = createSdkPorts({ trust: { jwksUrls: [fixtures.trustedJwksUrl], jwksCacheMs: 60_000 }, clock: () => clock.now });
    const from = fixtures.agent.received.length;
    const [a, b] = await Promise.all([
      firstValueFrom(ports(url(SIGNED_MOUNTS.signed)).card()),
      firstValueFrom(ports(url(SIGNED_MOUNTS.expired)).card()),
    ]);
    expect(a.signature).toEqual({ state: 'verified', kid: 'trusted', jwksUrl: fixtures.trustedJwksUrl });
    expect(b.signature).toMatchObject({ state: 'invalid', reason: 'expired-key' });
    expect(jwksFetches(from)).toEqual(['GET /keys/trusted.json']);
    clock.now += 2 * 3_600_000; // past the cards' max-age and the JWKS's jwksCacheMs
    await firstValueFrom(ports(url(SIGNED_MOUNTS.signed)).card());
    expect(jwksFetches(from)).toEqual(['GET /keys/trusted.json', 'GET /keys/trusted.json']);
  });
});

describe('a trusted JWKS URL that redirects', () => {
  it('to another origin: not followed, so the key there verifies nothing; under requireSignedCard nothing is sent', async () => {
    const elsewhere = fixtures.elsewhere.received.length;
    const error = await refused(SIGNED_MOUNTS.attacker, { jwksUrls: [fixtures.movedJwksUrl], requireSignedCard: true });
    expect(error.signature).toMatchObject({ state: 'unchecked', reason: 'keys-unavailable' });
    expect(error.message).toContain(
      `the JWKS at ${fixtures.movedJwksUrl} could not be had: it redirects to another origin (${fixtures.elsewhere.baseUrl})`,
    );
    const a2a = client({ jwksUrls: [fixtures.movedJwksUrl] });
    try {
      const { signature } = await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.attacker)));
      expect(signature).toMatchObject({ state: 'unchecked', reason: 'keys-unavailable' });
    } finally {
      await a2a.close();
    }
    expect(fixtures.elsewhere.received.slice(elsewhere)).toEqual([]); // the other origin was never asked
  });

  it('within its origin: followed, and the verdict names the URL the keys came from', async () => {
    const a2a = client({ jwksUrls: [fixtures.movedHereJwksUrl], requireSignedCard: true });
    try {
      expect((await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.signed)))).signature).toEqual({
        state: 'verified',
        kid: 'trusted',
        jwksUrl: fixtures.trustedJwksUrl,
      });
    } finally {
      await a2a.close();
    }
  });

  it('in a loop: given up after a few hops (keys unavailable)', async () => {
    const from = fixtures.agent.received.length;
    const error = await refused(SIGNED_MOUNTS.signed, { jwksUrls: [fixtures.loopJwksUrl], requireSignedCard: true });
    expect(error.message).toContain('could not be had: it redirects more than 3 times');
    expect(jwksFetches(from)).toEqual(Array(4).fill('GET /keys/loop.json'));
  });
});

describe('a verified card is used as it was signed', () => {
  it('a scheme added, unsigned, to a signed v1.0 card decides nothing: the API key goes only where the signed one says', async () => {
    const logger = recordingLogger();
    const agent = url(SIGNED_MOUNTS.extras);
    const from = fixtures.agent.received.length;
    const credentials = { [agent]: { apiKey: SIGNED_API_KEY } };
    const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, trust: trustInline(), credentials, logger });
    try {
      const summary = await firstValueFrom(a2a.card(agent));
      expect(summary.signature).toEqual({ state: 'verified', kid: 'trusted' });
      // Only the signed scheme; not `required`: a requirement without scopes is an empty value, which no canonical form covers.
      expect(summary.securitySchemes).toEqual([
        { name: 'apiKeyAuth', type: 'apiKey', required: false, in: 'header', paramName: 'X-API-Key' },
      ]);
      const events = await turn(a2a, SIGNED_MOUNTS.extras);
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    } finally {
      await a2a.close();
    }
    // On the wire: the key in the signed scheme's header on every call, never in a query.
    const { calls } = requests(fixtures.agent, SIGNED_MOUNTS.extras, from);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.headers['x-api-key']).toBe(SIGNED_API_KEY);
    const seen = fixtures.agent.received.slice(from);
    expect(seen.filter((r) => /[?&]leak=/.test(r.path) || r.path.includes(SIGNED_API_KEY))).toEqual([]);
    // One warning naming what was ignored, never a credential.
    const warnings = logger.lines.filter((line) => line.startsWith('warn '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('fields its signatures do not cover');
    expect(warnings[0]).toContain('"ignored":["securitySchemes.leak","securityRequirements","security"]');
    expect(logger.lines.join('\n')).not.toContain(SIGNED_API_KEY);
  });

  it('an extended card (never signed) that moves the calls to another origin is not used: they go where the signed card says', async () => {
    const logger = recordingLogger();
    const agent = url(SIGNED_MOUNTS.extended);
    const from = fixtures.elsewhere.received.length;
    const credentials = { [agent]: { apiKey: SIGNED_API_KEY } };
    const trust = trustInline({ requireSignedCard: true });
    const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, trust, credentials, logger });
    try {
      const summary = await firstValueFrom(a2a.card(agent));
      expect(summary.extended).toBeUndefined();
      expect(new URL(summary.url).origin).toBe(fixtures.agent.baseUrl);
      const events = await turn(a2a, SIGNED_MOUNTS.extended);
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    } finally {
      await a2a.close();
    }
    expect(fixtures.elsewhere.received.slice(from)).toEqual([]);
    const warnings = logger.lines.filter((line) => line.startsWith('warn '));
    expect(warnings.some((line) => line.includes("moves the agent's calls to another origin than its signed card names"))).toBe(true);
  });

  it('the warning comes once per card, however often it is fetched again', async () => {
    const logger = recordingLogger();
    const clock = { now: 1_700_000_000_000 };
    const ports = createSdkPorts({ trust: trustInline(), logger, clock: () => clock.now });
    await firstValueFrom(ports(url(SIGNED_MOUNTS.extras)).card());
    clock.now += 2 * 3_600_000; // past the card's max-age: fetched and checked again
    await firstValueFrom(ports(url(SIGNED_MOUNTS.extras)).card());
    expect(logger.lines.filter((line) => line.startsWith('warn '))).toHaveLength(1);
  });
});

describe('keys that cannot be had, where no signed card is required', () => {
  it('a JWKS that never answers: the card is unchecked (keys unavailable) and the turn goes on, well inside the card deadline', async () => {
    const logger = recordingLogger();
    // The default card deadline (10 s), and jwksTimeoutMs as long as it: the wait for keys is a fifth of it.
    const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, trust: { jwksUrls: [fixtures.stallJwksUrl] }, logger });
    try {
      const started = performance.now();
      const events = await turn(a2a, SIGNED_MOUNTS.signed);
      const elapsed = performance.now() - started;
      if (events instanceof Error) throw events;
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
      expect(elapsed).toBeLessThan(5_000);
      const { signature } = await firstValueFrom(a2a.card(url(SIGNED_MOUNTS.signed)));
      expect(signature).toEqual({
        state: 'unchecked',
        reason: 'keys-unavailable',
        detail: expect.stringMatching(
          `^keys unavailable: the JWKS at ${fixtures.stallJwksUrl} could not be had: no answer within \\d+ ms$`,
        ),
      });
    } finally {
      await a2a.close();
    }
    const warnings = logger.lines.filter((line) => line.startsWith('warn '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("the agent card's signature could not be checked");
  });
});
