/**
 * Mutual TLS per agent (the Node entry's `tls` option), against real SDK agents behind HTTPS servers
 * on 127.0.0.1 that require a client certificate (certificates made at test time with openssl): with
 * the certificate a turn completes, card fetch included; without it, or with one of another CA, the
 * turn fails with an `auth` error saying the agent refused the TLS handshake; one agent's certificate
 * never reaches another (a server that records what was offered); gRPC channels carry it too.
 */
import { createServer, type Server, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsAgent, startTlsGrpcAgent, type TlsAgent } from '../../../fixtures/agent-mtls.js';
import { REPLY, type FixtureAgent } from '../../../fixtures/index.js';
import { makeCertificates, type TestCertificates } from '../../../fixtures/tls-certs.js';
import { A2AError } from '../../../src/errors.js';
import { createA2A, type NodeA2AOptions } from '../../../src/node/create-a2a.js';
import { createNodeFetch } from '../../../src/node/fetch.js';
import { completed, failed, turn } from '../credentials-kit.js';
import { FAST } from '../harness.js';

const SECRET = 'mutual TLS test identity secret 0123456789';
let certs: TestCertificates;
let required: TlsAgent;
let recording: TlsAgent;
let grpcAgent: FixtureAgent & { grpcOrigin: string };
const clients: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  certs = makeCertificates();
  [required, recording, grpcAgent] = await Promise.all([
    startTlsAgent(certs, 'require'),
    startTlsAgent(certs, 'record'),
    startTlsGrpcAgent(certs),
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([required?.close(), recording?.close(), grpcAgent?.close()]);
});

function client(tls: NodeA2AOptions['tls']) {
  const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, ...(tls ? { tls } : {}) });
  clients.push(a2a);
  return a2a;
}

const agentTls = () => ({ cert: certs.client.cert, key: certs.client.key, ca: certs.ca });

/** A bare HTTPS server on 127.0.0.1 requiring a client certificate the CA signed, answering with `handler`; its origin. */
async function bareServer(options: ServerOptions, handler: Parameters<typeof createServer>[1]): Promise<string> {
  const tls = { key: certs.server.key, cert: certs.server.cert, ca: certs.ca, requestCert: true, rejectUnauthorized: true };
  const server: Server = createServer({ ...tls, ...options }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  clients.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('an agent that requires a client certificate', () => {
  it('with its certificate: the card fetch and the turn go through, each request presenting it', async () => {
    const a2a = client({ [required.baseUrl]: agentTls() });
    const from = required.offered.length;
    expect(completed(await turn(a2a, required.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    const offered = required.offered.slice(from);
    expect(offered.length).toBeGreaterThanOrEqual(2); // the card, then the stream
    expect(new Set(offered)).toEqual(new Set(['client-a']));
  });

  it('an encrypted key with its passphrase (and the CA as a list)', async () => {
    const { cert, key } = certs.encrypted;
    const a2a = client({ [required.baseUrl]: { cert, key, passphrase: certs.passphrase, ca: [certs.ca] } });
    const from = required.offered.length;
    expect(completed(await turn(a2a, required.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    expect(new Set(required.offered.slice(from))).toEqual(new Set(['client-b']));
  });

  it('without a certificate: the card fetch fails with an auth error, not retryable, saying the agent asks for one', async () => {
    const error = failed(await turn(client({ [required.baseUrl]: { ca: certs.ca } }), required.url('/'), 'artifacts'));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, operation: 'card', auth: { sent: 'no client certificate' } });
    expect(error.message).toContain('the agent refused the TLS handshake: it asks for a client certificate (mutual TLS) and none was sent');
  });

  it('the certificate for the card alone (a URL prefix): the calls after it fail as auth errors of their own operation', async () => {
    const tls = { [required.baseUrl]: { ca: certs.ca }, [required.url('/.well-known/')]: agentTls() };
    const error = failed(await turn(client(tls), required.url('/'), 'artifacts'));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, operation: 'stream' });
    expect(error.message).toMatch(
      /^stream to https:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc: the agent refused the TLS handshake: it asks for a client certificate/,
    );
  });

  it('a certificate of a CA it does not trust: an auth error saying it did not accept the certificate', async () => {
    const { cert, key } = certs.stranger;
    const error = failed(await turn(client({ [required.baseUrl]: { cert, key, ca: certs.ca } }), required.url('/'), 'artifacts'));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, auth: { sent: 'a client certificate' } });
    expect(error.message).toContain('did not accept the client certificate');
    expect(error.message).not.toContain('PRIVATE KEY');
  });
});

describe("one agent's certificate never reaches another", () => {
  it('an agent asking for certificates but configured with a CA alone is offered none, beside one that gets its own', async () => {
    const a2a = client({ [required.baseUrl]: agentTls(), [recording.baseUrl]: { ca: certs.ca } });
    const from = { required: required.offered.length, recording: recording.offered.length };
    expect(completed(await turn(a2a, recording.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    expect(completed(await turn(a2a, required.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    expect(completed(await turn(a2a, recording.url('/'), 'status'))).toBe(REPLY.status);
    const offeredToRecording = recording.offered.slice(from.recording);
    expect(offeredToRecording.length).toBeGreaterThanOrEqual(4);
    expect(new Set(offeredToRecording)).toEqual(new Set([null]));
    expect(new Set(required.offered.slice(from.required))).toEqual(new Set(['client-a']));
  });
});

describe("one agent's certificate, redirected", () => {
  it('a redirect from the agent to another origin goes there without its certificate (that origin takes its own entry)', async () => {
    const redirecting = await bareServer({}, (_req, res) =>
      res.writeHead(302, { location: `${recording.baseUrl}/.well-known/agent-card.json` }).end(),
    );
    const node = createNodeFetch({ tls: { [redirecting]: agentTls(), [recording.baseUrl]: { ca: certs.ca } } });
    clients.push(node);
    const from = recording.offered.length;
    const response = await node.fetch(`${redirecting}/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: 'tls-record' });
    expect(recording.offered.slice(from)).toEqual([null]);
  });
});

describe('a message sent with a client certificate, redirected', () => {
  it('to another origin: not followed, an http error, nothing reaches the other host; a same-origin 307 is followed', async () => {
    const elsewhere: string[] = [];
    const other = await bareServer({ requestCert: false }, (req, res) => {
      elsewhere.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    let hops = 0;
    const redirecting = await bareServer({}, (req, res) => {
      if (req.url === '/same') return res.writeHead(307, { location: '/final' }).end();
      if (req.url === '/final') return res.end(`{"hops":${++hops}}`);
      res.writeHead(307, { location: `${other}/stolen` }).end();
    });
    const node = createNodeFetch({ tls: { [redirecting]: agentTls(), [other]: { ca: certs.ca } } });
    clients.push(node);
    const post = { method: 'POST', body: '{"jsonrpc":"2.0","method":"SendMessage","params":{"message":"secret plans"}}' };
    const error = await node.fetch(`${redirecting}/a2a`, post).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ kind: 'http', status: 307, retryable: false });
    expect((error as Error).message).toContain('with a redirect (HTTP 307 to another origin); not followed');
    expect(elsewhere).toEqual([]);
    const same = await node.fetch(`${redirecting}/same`, post);
    expect(await same.json()).toEqual({ hops: 1 });
  });
});

describe('TLS 1.2: an agent refusing the handshake without a certificate', () => {
  it('handshake_failure does not say why: an auth error saying the agent may ask for a client certificate', async () => {
    const origin = await bareServer({ maxVersion: 'TLSv1.2' }, (_req, res) => res.end('{}'));
    const a2a = client({ [origin]: { ca: certs.ca } });
    const error = await lastValueFrom(a2a.card(`${origin}/`)).catch((e: A2AError) => e);
    expect(error).toMatchObject({
      kind: 'auth',
      retryable: false,
      operation: 'card',
      auth: { sent: 'not known (the TLS alert does not say)' },
    });
    expect((error as A2AError).message).toContain('the agent refused the TLS handshake (it may ask for a client certificate: mutual TLS)');
  });
});

describe('gRPC: a grpcs:// interface requiring a client certificate', () => {
  it("with its origin's certificate the turn completes; without, an auth error saying the agent asks for one", async () => {
    const origin = grpcAgent.grpcOrigin;
    const withCert = client({ [grpcAgent.baseUrl]: { ca: certs.ca }, [origin]: agentTls() });
    expect(completed(await turn(withCert, grpcAgent.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    const without = client({ [grpcAgent.baseUrl]: { ca: certs.ca }, [origin]: { ca: certs.ca } });
    const error = failed(await turn(without, grpcAgent.url('/'), 'artifacts'));
    expect(error).toMatchObject({ kind: 'auth', retryable: false, operation: 'stream' });
    expect(error.message).toMatch(
      /^stream to grpcs:\/\/127\.0\.0\.1:\d+: the agent refused the TLS handshake: it asks for a client certificate/,
    );
  });
});

describe('gRPC: an encrypted key', () => {
  it('is decrypted with its passphrase for the channel (gRPC takes none)', async () => {
    const { cert, key } = certs.encrypted;
    const tls = {
      [grpcAgent.baseUrl]: { ca: certs.ca },
      [grpcAgent.grpcOrigin]: { cert, key, passphrase: certs.passphrase, ca: certs.ca },
    };
    expect(completed(await turn(client(tls), grpcAgent.url('/'), 'status'))).toBe(REPLY.status);
  });
});

describe('the tls option, checked when the client is made', () => {
  const made = (tls: unknown) => {
    try {
      client(tls as NodeA2AOptions['tls']);
      return undefined;
    } catch (error) {
      return error as A2AError;
    }
  };
  it('a certificate without its key, unreadable PEM, a key of another certificate, an http key: config errors without the PEM', () => {
    const origin = 'https://agent.example';
    expect(made({ [origin]: { cert: certs.client.cert } })?.message).toContain('cert and key go together');
    const unreadable = made({ [origin]: { cert: 'not a certificate', key: certs.client.key } });
    expect(unreadable).toMatchObject({ kind: 'config' });
    expect(unreadable?.message).toMatch(/cannot be used \(.+\)/);
    const mismatch = made({ [origin]: { cert: certs.client.cert, key: certs.stranger.key } });
    expect(mismatch?.message).toMatch(/cannot be used/);
    expect(mismatch?.message).not.toContain('PRIVATE KEY');
    expect(made({ 'http://agent.example': { ca: certs.ca } })?.message).toContain('https origin');
    expect(made({ [origin]: { ca: certs.ca, pfx: 'x' } })?.message).toContain('unknown field "pfx"');
    expect(made({ [origin]: {} })?.message).toContain('give cert and key, or ca, or both');
    expect(made({ [origin]: { cert: certs.encrypted.cert, key: certs.encrypted.key, passphrase: 'wrong' } })?.message).not.toContain(
      'wrong',
    );
  });
  it('tls beside your own fetch: a config error', () => {
    expect(() => createA2A({ identitySecret: SECRET, fetch, tls: { 'https://agent.example': { ca: certs.ca } } })).toThrow(
      /tls is for the Node fetch/,
    );
  });
});
