/**
 * --insecure (and A2ACLI_INSECURE): TLS certificate verification off, for development against an agent
 * with a self-signed certificate, never silently: a warning on stderr every time, louder when
 * credentials go over it. The agent is the bearer fixture behind a TLS front on 127.0.0.1 (the
 * self-signed certificate of fixtures/tls), the URLs of its JSON answers (its cards) rewritten to the front's.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { REPLY } from '../../../fixtures/index.js';
import { runCli } from '../run-cli.js';

const TLS = new URL('../../../fixtures/tls/', import.meta.url);
let agents: AuthAgents;
let front: Server;
let frontOrigin: string;

beforeAll(async () => {
  agents = await startAuthAgents();
  const backend = new URL(agents.v1.url('/'));
  front = createServer(
    { key: readFileSync(new URL('self-signed.key', TLS)), cert: readFileSync(new URL('self-signed.crt', TLS)) },
    (req, res) => {
      const upstream = httpRequest(
        { host: backend.hostname, port: backend.port, path: req.url, method: req.method, headers: { ...req.headers, host: backend.host } },
        (answer) => {
          if (!String(answer.headers['content-type'] ?? '').includes('json')) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8').split(backend.origin).join(frontOrigin);
            const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
            res.writeHead(answer.statusCode ?? 502, headers).end(body);
          });
        },
      );
      req.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontOrigin = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  await agents.close();
});

describe('--insecure', { timeout: 60_000 }, () => {
  it('without it a self-signed agent is refused (verification is on by default)', async () => {
    const { code, stderr } = await runCli(['send', `${frontOrigin}${AUTH_MOUNTS.bearer}`, '--bearer', AUTH_SECRETS.bearer, 'artifacts']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/certificate not trusted: it is self-signed/);
  });

  it('with it the turn goes over TLS unverified, and stderr warns that the credentials sent can be read', async () => {
    const { code, stdout, stderr } = await runCli([
      'send',
      `${frontOrigin}${AUTH_MOUNTS.bearer}`,
      '--insecure',
      '--bearer',
      AUTH_SECRETS.bearer,
      'artifacts',
    ]);
    expect(stdout, stderr).toContain(REPLY.artifacts);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(
      `a4h: WARNING: --insecure: TLS certificate verification is OFF for ${frontOrigin}: the credentials sent to it can be read`,
    );
    expect(stderr).not.toContain(AUTH_SECRETS.bearer);
  });

  it('A2ACLI_INSECURE=true does the same, and warns the same (never silent, whatever sets it)', async () => {
    const { code, stderr } = await runCli(['card', `${frontOrigin}${AUTH_MOUNTS.bearer}`], { env: { A2ACLI_INSECURE: 'true' } });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/WARNING: --insecure: TLS certificate verification is OFF .*impersonate it/);
  });

  it('A2ACLI_INSECURE with another word than true or false is bad usage', async () => {
    const { code, stderr } = await runCli(['card', `${frontOrigin}${AUTH_MOUNTS.bearer}`], { env: { A2ACLI_INSECURE: 'maybe' } });
    expect(code).toBe(2);
    expect(stderr).toMatch(/A2ACLI_INSECURE takes true or false/);
  });
});
