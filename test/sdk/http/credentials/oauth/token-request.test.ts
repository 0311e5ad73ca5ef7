import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from '../../../../../fixtures/oauth-provider.js';
import { A2AError } from '../../../../../src/errors.js';
import { requestToken, tokenUrlProblem } from '../../../../../src/sdk/http/credentials/oauth/token-request.js';
import { answerTrickle } from '../../../../body-server.js';
import { useAgent } from '../../../../agent-rig.js';

// The client-credentials token request against a real authorization server (oidc-provider on loopback).

let server: OAuthServer;
useAgent(
  () => startOAuthServer({ ttlS: 30 }),
  (a) => (server = a),
);

const { id, secret } = OAUTH_CLIENTS.gateway;

describe('requestToken', () => {
  it('gets an access token with HTTP Basic client authentication, the scopes asked and its lifetime', async () => {
    const from = server.tokenRequests.length;
    const token = await requestToken({ tokenUrl: server.tokenUrl, clientId: id, clientSecret: secret, scopes: ['a2a.call'], fetch });
    expect(token.expiresInS).toBe(30);
    expect(token.scopes).toEqual(['a2a.call']);
    expect(await server.introspect(token.accessToken)).toEqual({ clientId: id, scope: 'a2a.call' });
    const [sent] = server.tokenRequests.slice(from);
    expect(sent?.authorization).toBe(`Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`);
    expect(new URLSearchParams(sent?.body)).toEqual(new URLSearchParams({ grant_type: 'client_credentials', scope: 'a2a.call' }));
  });

  it('client_secret_post puts the client in the body instead', async () => {
    const from = server.tokenRequests.length;
    const token = await requestToken({
      tokenUrl: server.tokenUrl,
      clientId: id,
      clientSecret: secret,
      fetch,
      clientAuthentication: 'client_secret_post',
    });
    expect(await server.introspect(token.accessToken)).toMatchObject({ clientId: id });
    const [sent] = server.tokenRequests.slice(from);
    expect(sent?.authorization).toBeUndefined();
    expect(new URLSearchParams(sent?.body).get('client_secret')).toBe(secret);
  });

  it("a refusal is an auth error naming the endpoint's error code only, never the secret", async () => {
    const wrong = 'not-the-secret-4b3a2918';
    const error = await requestToken({ tokenUrl: server.tokenUrl, clientId: id, clientSecret: wrong, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    expect((error as Error).message).toBe(
      `the token endpoint ${server.tokenUrl} refused the client credentials request (HTTP 401, error "invalid_client")`,
    );
    const scope = await requestToken({
      tokenUrl: server.tokenUrl,
      clientId: id,
      clientSecret: secret,
      scopes: ['openid', 'nope'],
      fetch,
    }).catch((e: unknown) => e);
    expect((scope as Error).message).toMatch(/HTTP 400, error "invalid_scope"\)$/);
    for (const e of [error, scope]) expect(JSON.stringify(e) + String(e) + String((e as Error).cause)).not.toContain(secret);
  });

  it('sends nothing to a token URL that is plain http off loopback, and follows no redirect', async () => {
    let sent = 0;
    const counting: typeof fetch = async (input, init) => {
      sent++;
      return fetch(input, init);
    };
    const plain = await requestToken({ tokenUrl: 'http://idp.example/token', clientId: id, clientSecret: secret, fetch: counting }).catch(
      (e: unknown) => e,
    );
    expect(plain).toMatchObject({ kind: 'auth', message: expect.stringContaining('must be https://') });
    expect(sent).toBe(0);
    expect(tokenUrlProblem('https://idp.example/token')).toBeUndefined();
    expect(tokenUrlProblem('http://localhost:8080/token')).toBeUndefined();
    const redirecting: typeof fetch = async () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/' } });
    const moved = await requestToken({ tokenUrl: server.tokenUrl, clientId: id, clientSecret: secret, fetch: redirecting }).catch(
      (e: unknown) => e,
    );
    expect(moved).toMatchObject({ kind: 'auth', message: expect.stringContaining('redirect (HTTP 302); not followed') });
  });

  it('an unreachable endpoint is a network error (retryable)', async () => {
    const closed = await startOAuthServer();
    await closed.close();
    const error = await requestToken({ tokenUrl: closed.tokenUrl, clientId: id, clientSecret: secret, fetch }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });
});

describe('requestToken within its signal', () => {
  /** A token endpoint on loopback that answers its headers and then one byte a second, or nothing at all. */
  async function slowEndpoint(kind: 'trickle' | 'silent'): Promise<{ url: string; close(): Promise<void> }> {
    const timers = new Set<NodeJS.Timeout>();
    const server: Server = createServer((req, res) => {
      req.resume();
      if (kind === 'silent') return;
      answerTrickle(res, timers);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token?tenant=hidden-tenant`,
      close: () => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  for (const kind of ['trickle', 'silent'] as const) {
    it(`a ${kind} token endpoint: a timeout error naming the endpoint (its query redacted) when the signal times out`, async () => {
      const endpoint = await slowEndpoint(kind);
      try {
        const started = Date.now();
        const error = await requestToken({
          tokenUrl: endpoint.url,
          clientId: id,
          clientSecret: secret,
          fetch,
          signal: AbortSignal.timeout(1_200),
        }).catch((e: unknown) => e);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(error).toBeInstanceOf(A2AError);
        const shown = endpoint.url.replace('hidden-tenant', '***');
        expect(error).toMatchObject({ kind: 'timeout', retryable: true, message: `the token endpoint ${shown} did not answer in time` });
        expect(String(error) + JSON.stringify(error)).not.toContain('hidden-tenant');
      } finally {
        await endpoint.close();
      }
    });
  }
});
