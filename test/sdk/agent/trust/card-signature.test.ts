import { generateAgentCardSignature, verifyAgentCardSignature, type AgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { fixtureSkill } from '../../../../fixtures/behaviours.js';
import { v03Card, v1Card, v1Interfaces } from '../../../../fixtures/cards.js';
import { signV03 } from '../../../../fixtures/agent-signed.js';
import { cardSigner, jwksOf, makeSigningKey, type SigningKey } from '../../../../fixtures/signing.js';
import { isA2AError } from '../../../../src/errors.js';
import type { Logger } from '../../../../src/logger.js';
import type { CardSignature } from '../../../../src/port/card.js';
import { jcs, signedForm, unsignedFields } from '../../../../src/sdk/agent/trust/canonical.js';
import { readJwks } from '../../../../src/sdk/agent/trust/jwks.js';
import { checkTrust, type TrustOption } from '../../../../src/sdk/agent/trust/options.js';
import { CardTrust } from '../../../../src/sdk/agent/trust/trust.js';

// The verdict on a card's signatures, on cards signed by the SDK's own signer, without a server (the
// whole path, over loopback, is in signed-cards.test.ts).

const host = { url: (mount: string, path = '') => `http://127.0.0.1:9/${mount.replace(/^\/|\/$/g, '')}${path}` };
const CARD_URL = 'http://127.0.0.1:9/agent/.well-known/agent-card.json';
const trusted = makeSigningKey('k1');
const other = makeSigningKey('k2');

/** A v1.0 card as the SDK's server writes it (JSON.stringify of the card object). */
function card(description = 'A signed agent.'): AgentCard {
  return v1Card(
    { name: 'agent', description, version: '1.0.0', streaming: true, skills: [fixtureSkill()] },
    v1Interfaces(host, '/agent/', ['JSONRPC']),
  );
}
const served = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const signed = async (key: SigningKey = trusted, jku?: string) => served(await cardSigner(key, jku)(card()));

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const noFetch: typeof fetch = () => Promise.reject(new Error('no fetch in this test'));

/** The verdict on `json` with `option` (inline keys unless told), its warnings and the URLs fetched. */
async function verdict(
  json: Record<string, unknown>,
  option: TrustOption = { jwks: jwksOf(trusted) },
  more: { fetch?: typeof fetch; now?: number; shape?: '1.0' | '0.3' } = {},
): Promise<{ signature: CardSignature; warnings: unknown[] }> {
  const warnings: unknown[] = [];
  const logger = { ...silent, warn: (fields: unknown) => warnings.push(fields) };
  const trust = new CardTrust(option, more.fetch ?? noFetch, logger, () => more.now ?? Date.now());
  const signature = await trust.check(json, more.shape ?? '1.0', CARD_URL, new AbortController().signal);
  return { signature, warnings };
}

/** What the SDK's own verifier says of the card, with `key` as the only key. */
async function sdkSays(json: Record<string, unknown>, key: SigningKey): Promise<'valid' | 'invalid'> {
  const verify = verifyAgentCardSignature(async () => key.publicJwk as never);
  const debug = console.debug;
  console.debug = () => undefined; // the SDK prints each signature that fails
  try {
    await verify(json as unknown as AgentCard);
    return 'valid';
  } catch {
    return 'invalid';
  } finally {
    console.debug = debug;
  }
}

describe('the verdict on a v1.0 card signed by the SDK', () => {
  it('verified by the trusted key, as the SDK verifies it', async () => {
    const json = await signed();
    expect((await verdict(json)).signature).toEqual({ state: 'verified', kid: 'k1' });
    expect(await sdkSays(json, trusted)).toBe('valid');
  });

  it('default-valued fields the signer left out, or wrote, do not change the payload (the SDK drops them)', async () => {
    const json = await signed();
    const withDefaults = {
      ...json,
      iconUrl: '',
      provider: null,
      capabilities: { ...(json['capabilities'] as object), extensions: [] },
      supportedInterfaces: (json['supportedInterfaces'] as object[]).map((i) => ({ ...i, tenant: '' })),
    };
    expect((await verdict(withDefaults)).signature).toEqual({ state: 'verified', kid: 'k1' });
    const { securityRequirements: _, securitySchemes: __, ...without } = json;
    expect((await verdict(without)).signature).toEqual({ state: 'verified', kid: 'k1' });
  });

  it('a field outside the v1.0 schema is not covered, exactly as with the SDK (its canonical form drops it)', async () => {
    const json = { ...(await signed()), 'x-added-later': 'not signed' };
    expect((await verdict(json)).signature).toEqual({ state: 'verified', kid: 'k1' });
    expect(await sdkSays(json, trusted)).toBe('valid');
  });

  it('a field changed after signing: bad signature, and the SDK agrees', async () => {
    const json = { ...(await signed()), description: 'Changed after it was signed.' };
    expect((await verdict(json)).signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
    expect(await sdkSays(json, trusted)).toBe('invalid');
    const moved = await signed();
    (moved['supportedInterfaces'] as { url: string }[])[0]!.url = 'http://127.0.0.1:9/elsewhere/a2a/jsonrpc';
    expect((await verdict(moved)).signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
  });

  it('signed by a key nobody trusts: unknown key, naming its kid', async () => {
    const { signature } = await verdict(await signed(other));
    expect(signature).toEqual({ state: 'invalid', reason: 'unknown-key', detail: 'unknown key: no trusted key has the kid "k2"' });
  });

  it('a trusted key with the same kid but another key pair: bad signature', async () => {
    const impostor = makeSigningKey('k1');
    expect((await verdict(await signed(impostor))).signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
  });

  it('unsigned; signed with no keys configured: unchecked', async () => {
    expect((await verdict(served(card()))).signature).toEqual({ state: 'unsigned' });
    expect((await verdict(await signed(), {})).signature).toEqual({ state: 'unchecked' });
  });

  it("an expired key (its JWK's exp) is not used; one that expires later is", async () => {
    const expiring = makeSigningKey('k3', { exp: 2_000_000_000 });
    const json = await signed(expiring);
    const before = await verdict(json, { jwks: jwksOf(expiring) }, { now: 1_999_999_999_000 });
    expect(before.signature).toEqual({ state: 'verified', kid: 'k3' });
    const after = await verdict(json, { jwks: jwksOf(expiring) }, { now: 2_000_000_000_000 });
    expect(after.signature).toEqual({
      state: 'invalid',
      reason: 'expired-key',
      detail: 'expired key: key "k3" expired at 2033-05-18T03:33:20.000Z',
    });
  });

  it("a signature whose protected header's exp has passed is expired too", async () => {
    const sign = generateAgentCardSignature(trusted.privateKey, { alg: 'ES256', kid: 'k1', typ: 'JOSE', exp: 1_000_000_000 } as never);
    const json = served(await sign(card()));
    expect((await verdict(json)).signature).toMatchObject({ state: 'invalid', reason: 'expired-key' });
    expect((await verdict(json, undefined, { now: 999_999_999_000 })).signature).toEqual({ state: 'verified', kid: 'k1' });
  });

  it('two signatures (a key rotated): the one that verifies wins; none: the closest failure is named', async () => {
    const both = served(await cardSigner(trusted)(await cardSigner(other)(card())));
    expect((await verdict(both)).signature).toEqual({ state: 'verified', kid: 'k1' });
    const tampered = { ...both, name: 'changed' };
    expect((await verdict(tampered)).signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
  });

  it('malformed signatures: not JSON, no kid, an algorithm that is not accepted (HS256, none)', async () => {
    const json = await signed();
    const [entry] = json['signatures'] as { protected: string; signature: string }[];
    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const withHeader = (protectedHeader: string) => ({ ...json, signatures: [{ ...entry, protected: protectedHeader }] });
    expect((await verdict(withHeader('not-json'))).signature).toMatchObject({ state: 'invalid', reason: 'malformed' });
    expect((await verdict(withHeader(header({ alg: 'ES256', typ: 'JOSE' })))).signature).toMatchObject({ reason: 'malformed' });
    expect((await verdict(withHeader(header({ alg: 'HS256', typ: 'JOSE', kid: 'k1' })))).signature).toMatchObject({
      reason: 'bad-signature',
      detail: expect.stringContaining('"HS256" is not accepted'),
    });
    expect((await verdict(withHeader(header({ alg: 'none', typ: 'JOSE', kid: 'k1' })))).signature).toMatchObject({
      reason: 'bad-signature',
    });
    expect((await verdict({ ...json, signatures: [{ nothing: true }] })).signature).toMatchObject({ reason: 'malformed' });
  });

  it('a shared secret (an oct key) in a JWKS is never trusted, and a private key given by mistake is used as its public half', async () => {
    expect(readJwks({ keys: [{ kty: 'oct', kid: 'k1', k: 'c2VjcmV0' }] })).toEqual([]);
    // A key type named like a member of every object is no key type: skipped, not a TypeError.
    expect(readJwks({ keys: [{ kty: 'constructor' }, { kty: 'toString' }, { kty: '__proto__' }] })).toEqual([]);
    const privateJwk = { ...trusted.privateKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256' };
    const [key] = readJwks({ keys: [privateJwk] });
    expect(key!.jwk).not.toHaveProperty('d');
    expect((await verdict(await signed(), { jwks: { keys: [privateJwk as never] } })).signature).toEqual({ state: 'verified', kid: 'k1' });
  });

  it('a bad signature is warned about once per card, without the keys', async () => {
    const warnings: unknown[] = [];
    const logger = { ...silent, warn: (fields: unknown) => warnings.push(fields) };
    const trust = new CardTrust({ jwks: jwksOf(trusted) }, noFetch, logger);
    const check = (json: Record<string, unknown>) => trust.check(json, '1.0', CARD_URL, new AbortController().signal);
    const tampered = { ...(await signed()), description: 'changed' };
    await check(tampered);
    await check(tampered);
    expect(warnings).toEqual([{ agent: CARD_URL, signature: 'bad-signature', detail: expect.stringContaining('bad signature') }]);
    await check({ ...(await signed()), description: 'changed' }); // another card (another signature): warned again
    expect(warnings).toHaveLength(2);
    await check(served(card())); // unsigned: no warning
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(warnings)).not.toContain(String(trusted.publicJwk['x']));
  });
});

describe('a signature pointing to its key (jku)', () => {
  const JKU = 'http://127.0.0.1:9/keys/jwks.json';
  const fetched: string[] = [];
  const serving: typeof fetch = async (input) => {
    fetched.push(String(input));
    return new Response(JSON.stringify(jwksOf(other)), { headers: { 'content-type': 'application/json' } });
  };

  it('not a trusted JWKS URL: never fetched, and the verdict says so', async () => {
    fetched.length = 0;
    const { signature } = await verdict(await signed(other, JKU), { jwks: jwksOf(trusted) }, { fetch: serving });
    expect(signature).toMatchObject({ state: 'invalid', reason: 'untrusted-jku' });
    expect((signature as { detail: string }).detail).toContain(JKU);
    expect(fetched).toEqual([]);
  });

  it('a trusted JWKS URL: its keys verify, and the verdict names where the key came from', async () => {
    fetched.length = 0;
    const { signature } = await verdict(await signed(other, JKU), { jwksUrls: [JKU] }, { fetch: serving });
    expect(signature).toEqual({ state: 'verified', kid: 'k2', jwksUrl: JKU });
    expect(fetched).toEqual([JKU]);
  });
});

describe('a v0.3 card (A2A v0.3 defines no canonical form)', () => {
  it('signed over its JSON as served (no signatures, empty values dropped, JCS): verified; its url changed: bad signature', async () => {
    const json = served(
      await signV03(v03Card({ name: 'old', description: 'v0.3', version: '0.3.0', streaming: true, skills: [] }, host, '/v03/'), trusted),
    );
    expect((await verdict(json, undefined, { shape: '0.3' })).signature).toEqual({ state: 'verified', kid: 'k1' });
    const moved = { ...json, url: 'http://127.0.0.1:9/elsewhere/' };
    expect((await verdict(moved, undefined, { shape: '0.3' })).signature).toMatchObject({ state: 'invalid', reason: 'bad-signature' });
  });

  it('JCS: members sorted by UTF-16 code units, no whitespace, numbers as ECMAScript writes them', () => {
    expect(jcs({ b: [1, 1e21, 0.5], a: { '€': 1, z: 'é', A: null } })).toBe('{"a":{"A":null,"z":"é","€":1},"b":[1,1e+21,0.5]}');
  });
});

describe('the trust option, checked', () => {
  const configError = (option: unknown) => {
    try {
      checkTrust(option as TrustOption);
    } catch (error) {
      return isA2AError(error, 'config') ? error.message : `not a config error: ${String(error)}`;
    }
    return 'accepted';
  };

  it('refuses what cannot work, naming the field', () => {
    expect(configError({ requireSignedCard: true })).toMatch(/requireSignedCard needs keys/);
    expect(configError({ jwks: { keys: [{ kid: 'no kty' }] } })).toMatch(/jwks is not a JWKS: its field keys\.0\.kty/);
    expect(configError({ jwksUrls: ['ftp://keys.example/jwks.json'] })).toMatch(/jwksUrls\.0 must be an http\(s\) URL/);
    expect(configError({ jwksUrls: ['https://user:pw@keys.example/'] })).not.toContain('pw');
    expect(configError({ jwks: jwksOf(trusted), requireSignedCard: ['not a url'] })).toMatch(/requireSignedCard "not a url"/);
    expect(configError({ jwks: jwksOf(trusted), jwksTimeoutMs: 0 })).toMatch(/jwksTimeoutMs/);
    expect(configError({ jwks: jwksOf(trusted), requireSignedCard: { 'https://a.example': true } })).toBe('accepted');
  });

  it('requireSignedCard by origin or URL prefix, the longest prefix deciding', async () => {
    const option: TrustOption = {
      jwks: jwksOf(trusted),
      requireSignedCard: { 'http://127.0.0.1:9': true, 'http://127.0.0.1:9/public/': false },
    };
    const trust = new CardTrust(option, noFetch, silent);
    const check = (url: string) =>
      trust.check(served(card()), '1.0', url, new AbortController().signal).then(
        () => 'used',
        (error: unknown) => (isA2AError(error, 'card') ? 'refused' : 'other'),
      );
    expect(await check('http://127.0.0.1:9/agent/.well-known/agent-card.json')).toBe('refused');
    expect(await check('http://127.0.0.1:9/public/agent/.well-known/agent-card.json')).toBe('used');
    expect(await check('http://127.0.0.1:9/publicity/.well-known/agent-card.json')).toBe('refused');
    expect(await check('http://127.0.0.2:9/agent/.well-known/agent-card.json')).toBe('used');
    const listed = new CardTrust({ jwks: jwksOf(trusted), requireSignedCard: ['http://127.0.0.1:9/agent/'] }, noFetch, silent);
    await expect(listed.check(served(card()), '1.0', CARD_URL, new AbortController().signal)).rejects.toMatchObject({
      kind: 'card',
      retryable: false,
      signature: { state: 'unsigned' },
      message: `a signed agent card is required for this agent (requireSignedCard): no signature: the card is not signed (${CARD_URL})`,
    });
  });
});

describe('keys that cannot be had', () => {
  const failing: typeof fetch = async () => new Response('down', { status: 500 });

  it('where no signed card is required: unchecked, with the reason, and one warning per card', async () => {
    const warnings: unknown[] = [];
    const logger = { ...silent, warn: (fields: unknown) => warnings.push(fields) };
    const trust = new CardTrust({ jwksUrls: ['http://127.0.0.1:9/keys.json'] }, failing, logger);
    const json = await signed();
    for (let n = 0; n < 2; n++) {
      expect(await trust.check(json, '1.0', CARD_URL, new AbortController().signal)).toEqual({
        state: 'unchecked',
        reason: 'keys-unavailable',
        detail: 'keys unavailable: the JWKS at http://127.0.0.1:9/keys.json could not be had: HTTP 500',
      });
    }
    expect(warnings).toEqual([{ agent: CARD_URL, signature: 'keys-unavailable', detail: expect.stringContaining('HTTP 500') }]);
  });

  it('no time left within the card deadline: no JWKS is fetched', async () => {
    const fetched: string[] = [];
    const never: typeof fetch = async (input) => {
      fetched.push(String(input));
      return failing(input);
    };
    const clock = { now: 50_000 };
    const trust = new CardTrust({ jwksUrls: ['http://127.0.0.1:9/keys.json'] }, never, silent, Date.now, {
      cardTimeoutMs: 1_000,
      monotonic: () => clock.now,
    });
    const signature = await trust.check(await signed(), '1.0', CARD_URL, new AbortController().signal, clock.now - 950);
    expect(signature).toMatchObject({ state: 'unchecked', reason: 'keys-unavailable', detail: expect.stringContaining('no time left') });
    expect(fetched).toEqual([]);
  });

  it('a JWKS is fetched without following redirects; one that a browser hides (an opaque redirect) is refused', async () => {
    const inits: (RequestInit | undefined)[] = [];
    const opaque: typeof fetch = async (_input, init) => {
      inits.push(init);
      const response = new Response(null, { status: 200 });
      Object.defineProperties(response, { type: { value: 'opaqueredirect' }, status: { value: 0 }, ok: { value: false } });
      return response;
    };
    const { signature } = await verdict(await signed(), { jwksUrls: ['http://127.0.0.1:9/keys.json'] }, { fetch: opaque });
    expect(signature).toMatchObject({ state: 'unchecked', reason: 'keys-unavailable', detail: expect.stringContaining('it redirects') });
    expect(inits.map((init) => init?.redirect)).toEqual(['manual']);
  });
});

describe('the signed form: what a verified card is read from', () => {
  it('v1.0: the fields of the v1.0 schema only, so an added v0.3-style scheme, security, url or flag is left out, and named', async () => {
    const json = await signed();
    const scheme = { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } };
    const withScheme = served(
      await cardSigner(trusted)({ ...card(), securitySchemes: { key: scheme as never }, securityRequirements: [] }),
    );
    const attacked = {
      ...withScheme,
      securitySchemes: { leak: { type: 'apiKey', in: 'query', name: 'leak' }, ...(withScheme['securitySchemes'] as object) },
      security: [{ leak: [] }],
      url: 'http://127.0.0.1:9/attacker/',
      preferredTransport: 'JSONRPC',
      supportsAuthenticatedExtendedCard: true,
      supportedInterfaces: (withScheme['supportedInterfaces'] as object[]).map((i) => ({ ...i, 'x-more': 1 })),
    };
    expect((await verdict(attacked)).signature).toEqual({ state: 'verified', kid: 'k1' });
    const form = signedForm(attacked, '1.0');
    expect(form['securitySchemes']).toEqual({ key: scheme });
    expect(form).not.toHaveProperty('security');
    expect(form).not.toHaveProperty('url');
    expect(form).not.toHaveProperty('signatures');
    expect(unsignedFields(attacked, form)).toEqual([
      'supportedInterfaces.0.x-more',
      'securitySchemes.leak',
      'security',
      'url',
      'preferredTransport',
      'supportsAuthenticatedExtendedCard',
    ]);
    expect(unsignedFields(json, signedForm(json, '1.0'))).toEqual([]);
  });

  it('v0.3: the JSON as served without signatures and empty values (a requirement without scopes too); a skill keeps its id and name', async () => {
    const base = v03Card({ name: 'old', description: 'v0.3', version: '0.3.0', streaming: true, skills: [] }, host, '/v03/');
    const json = served(await signV03({ ...base, skills: [{ id: '', name: '', description: 'd', tags: ['t'] }] }, trusted));
    const withEmpty = { ...json, additionalInterfaces: [], documentationUrl: '', security: [{ anyScheme: [] }] };
    expect((await verdict(withEmpty, undefined, { shape: '0.3' })).signature).toEqual({ state: 'verified', kid: 'k1' });
    const form = signedForm(withEmpty, '0.3');
    expect(form).not.toHaveProperty('additionalInterfaces');
    expect(form).not.toHaveProperty('security');
    expect(form).not.toHaveProperty('signatures');
    expect(form['url']).toBe(json['url']);
    expect(form['skills']).toEqual([{ id: '', name: '', description: 'd', tags: ['t'] }]);
    expect(unsignedFields(withEmpty, form)).toEqual(['security']); // it means something, but holds only empty values
  });
});
