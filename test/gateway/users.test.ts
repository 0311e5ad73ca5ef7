/**
 * Who may see what through the gateway, tried as an attacker would: without a token, with a forged,
 * expired or foreign one (401, nothing reaches the agent), and as a second user with a valid token
 * of their own on the first user's thread key: reading the reply in progress, resuming it by its
 * position, asking for its message, answering into its task and cancelling it. The agent's own
 * record says what was not shown, sent or cancelled. The development issuer's command prints tokens
 * the replicas' default trust accepts; a JWKS can be a URL, as an identity provider publishes it.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { KeyObject } from 'node:crypto';
import { SignJWT, UnsecuredJWT, generateKeyPair, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoAgent } from '../../demo/agent.js';
import { tokenVerifier } from '../../examples/gateway/auth.mjs';
import { parsePosition } from '../../src/render/position.js';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { type Gateway } from '../../examples/gateway/replica.mjs';
import { devIssuer, devIssuerDir, type DevIssuer } from '../../examples/gateway/token.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';
import { startSoloGateway, type SoloGateway } from './rig.js';

const SECRET = 'users-test-secret-not-for-production';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let solo: SoloGateway | undefined;
let agent: DemoAgent;
let gateway: Gateway;
let issuer: DevIssuer;
const agentLog: string[] = [];

const tasksOf = async (user: string, thread: string) => agentTasks(agent.url, await deriveContextId(SECRET, user, thread));
const call = (path: string, token: string | undefined, init: RequestInit = {}) =>
  fetch(new URL(path, gateway.url), { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...init.headers } });

beforeAll(async () => {
  solo = await startSoloGateway({
    prefix: 'a4h-users-test-',
    secret: SECRET,
    agent: { chunkDelayMs: 150, log: (line) => agentLog.push(line) },
  });
  ({ agent, gateway, issuer } = solo);
});

afterAll(() => solo?.close());

describe('users of the gateway', { timeout: 30_000 }, () => {
  it('no token, a malformed, forged, expired, foreign or unsigned one: 401 with a JSON reason; nothing reaches the agent', async () => {
    const before = agentLog.length;
    const other = await generateKeyPair('ES256');
    const now = Math.floor(Date.now() / 1000);
    // The issuer's own key (as if it signed these), and another with the issuer's key id (a forgery).
    const own = JSON.parse(await readFile(join(issuer.dir, 'key.json'), 'utf8')) as { kid: string };
    const ownKey = await importJWK(own, 'ES256');
    const signed = (claims: { iss?: string; aud?: string; exp?: number }, key: CryptoKey | KeyObject | Uint8Array = other.privateKey) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: own.kid })
        .setIssuer(claims.iss ?? issuer.issuer)
        .setAudience(claims.aud ?? issuer.audience)
        .setSubject('mallory')
        .setExpirationTime(claims.exp ?? now + 60)
        .sign(key);
    const bad: Array<[string | undefined, RegExp]> = [
      [undefined, /required/],
      ['not-a-jwt', /not valid/],
      [await signed({}), /not valid/],
      [await signed({ exp: now - 60 }, ownKey), /expired/],
      [await signed({ aud: 'someone-else' }, ownKey), /not valid/],
      [await signed({ iss: 'https://evil.example/' }, ownKey), /not valid/],
      [
        new UnsecuredJWT({ sub: 'mallory' }).setIssuer(issuer.issuer).setAudience(issuer.audience).setExpirationTime('1h').encode(),
        /not valid/,
      ],
    ];
    for (const [token, reason] of bad) {
      const response = await call('threads/t/messages', token, { method: 'POST', body: '{"text":"hi"}' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="a4h-gateway"/);
      expect(((await response.json()) as { error: string }).error).toMatch(reason);
    }
    const basic = await call('threads/t/events', undefined, { headers: { authorization: 'Basic YTpi' } });
    expect(basic.status).toBe(401);
    expect((await call('healthz', undefined)).status).toBe(200);
    expect(agentLog.length).toBe(before);
  });

  it("a second user on the same thread key sees, resumes, answers into and cancels nothing of the first user's", async () => {
    const thread = 'shared-key';
    const alice = await issuer.sign('alice');
    const bob = await issuer.sign('bob');
    let position = '';
    let message = '';
    let bobDoneAt = Infinity;
    let aliceEndAt = 0;
    let bobsTurns: Promise<void> | undefined;
    const attempts: Record<string, number | string> = {};
    const followed = await followTurn({
      gateway: gateway.url,
      token: alice,
      thread,
      text: 'my secret plans',
      onEvent: (event, id) => {
        if (event.type === 'start') message = String(event.messageId);
        if (event.type === 'end') aliceEndAt = Date.now();
        if (event.type !== 'text' || bobsTurns !== undefined) return;
        position = id!;
        const taskId = parsePosition(position)!.taskId;
        bobsTurns = (async () => {
          const asBob = (path: string, init: RequestInit = {}) => call(`threads/${thread}/${path}`, bob, init);
          const events = await (await asBob('events')).text();
          attempts.thread = events;
          attempts.position = (await asBob('events', { headers: { 'last-event-id': position } })).status;
          attempts.from = (await asBob(`events?from=${encodeURIComponent(position)}`)).status;
          // Sent long ago, as far as bob says: the lookup's grace is over, so his thread answers at once.
          attempts.message = await (await asBob(`events?message=${encodeURIComponent(message)}&sent=0`)).text();
          attempts.answer = (
            await asBob('messages', { method: 'POST', body: JSON.stringify({ text: 'cancel everything', taskId }) })
          ).status;
          attempts.cancel = (await asBob('cancel', { method: 'POST', body: JSON.stringify({ taskId }) })).status;
          bobDoneAt = Date.now();
        })();
      },
    });
    await bobsTurns;
    // All of it while alice's reply streamed.
    expect(bobDoneAt).toBeLessThan(aliceEndAt);
    // Bob's thread is his own: nothing in flight there, and alice's message is not in it.
    expect(attempts.thread).toMatch(/event: start[\s\S]*"outcome":"none"/);
    expect(attempts.message).toMatch(/"outcome":"not-received"/);
    expect(attempts.thread).not.toContain('secret');
    expect([attempts.position, attempts.from, attempts.answer, attempts.cancel]).toEqual([404, 404, 404, 404]);
    // Alice's reply: whole, her task completed, not cancelled, one message (hers) in it.
    expect(followed.end).toMatchObject({ outcome: 'completed' });
    expect(followed.reply).toBe(followed.end!.text);
    const hers = await tasksOf('alice', thread);
    expect(hers.map((t) => ({ state: t.state, messages: t.messageIds.length }))).toEqual([{ state: 'TASK_STATE_COMPLETED', messages: 1 }]);
    expect(agentLog.filter((line) => line.endsWith('canceled'))).toEqual([]);
    // Bob sent nothing: no task in his own thread either.
    expect(await tasksOf('bob', thread)).toEqual([]);
  });

  it('token.mjs prints a token for a user that replicas trusting the development issuer accept; a JWKS can be a URL', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['examples/gateway/token.mjs', 'carol', '--ttl', '60'], { cwd: ROOT });
    const dev = await devIssuer(devIssuerDir());
    const verify = await tokenVerifier({ jwks: dev.jwksFile, issuer: dev.issuer, audience: dev.audience });
    expect(await verify(`Bearer ${stdout.trim()}`)).toBe('carol');
    const usage = await run(process.execPath, ['examples/gateway/token.mjs'], { cwd: ROOT }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage') });
    // An identity provider's JWKS URL; keys that cannot be fetched are a 503, not a refusal.
    const jwks = await readFile(issuer.jwksFile, 'utf8');
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
      const remote = await tokenVerifier({ jwks: url, issuer: issuer.issuer, audience: issuer.audience });
      expect(await remote(`Bearer ${await issuer.sign('dave')}`)).toBe('dave');
      const gone = await tokenVerifier({ jwks: 'http://127.0.0.1:9/jwks.json', issuer: issuer.issuer, audience: issuer.audience });
      await expect(gone(`Bearer ${await issuer.sign('dave')}`)).rejects.toMatchObject({ status: 503 });
    } finally {
      server.close();
    }
  });
});
