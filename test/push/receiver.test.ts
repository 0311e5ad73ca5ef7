import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pushCredentials } from '../../src/push/credential.js';
import { post, SECRET, startReceiver, statusPush, type LoopbackReceiver } from './receiver-kit.js';

// The receiver as an attacker meets it: every request that is not a checked push of the thread its
// credential names is refused, and nothing of it reaches a turn.

const A = 'ctx-thread-a';
const B = 'ctx-thread-b';

let rx: LoopbackReceiver;
let token: string;

beforeEach(async () => {
  rx = await startReceiver({ rate: { perSecond: 5, burst: 20 } });
  rx.follow(A);
  rx.follow(B);
  token = (await firstValueFrom(rx.receiver.target(A))).token;
});
afterEach(() => rx.close());

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
const nothingShown = () => expect([...rx.shown.values()].flat()).toEqual([]);

describe('a push receiver, attacked', () => {
  it('takes a checked push (Authorization or the v0.3 token header) and hands it to the thread, answering 204', async () => {
    expect((await post(rx.url, statusPush('t-1', A), bearer(token))).status).toBe(204);
    expect((await post(rx.url, statusPush('t-1', A, 'TASK_STATE_COMPLETED'), { 'x-a2a-notification-token': token })).status).toBe(204);
    expect(rx.shown.get(A)!.map((event) => event.kind === 'status' && event.status.state)).toEqual(['working', 'completed']);
    expect(rx.shown.get(B)).toEqual([]);
  });

  it('refuses a push without a credential, with a forged one, and with one signed by another secret: 401', async () => {
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const foreign = await pushCredentials({ secret: 'another-deployment-secret-xyz' }).issue(A);
    const answers = await Promise.all([
      post(rx.url, statusPush('t-1', A)),
      post(rx.url, statusPush('t-1', A), bearer(forged)),
      post(rx.url, statusPush('t-1', A), bearer(foreign)),
      post(rx.url, statusPush('t-1', A), bearer('a4hp1.x.y.z')),
      post(rx.url, statusPush('t-1', A), { authorization: `Basic ${token}` }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers[0]!.headers.get('www-authenticate')).toMatch(/^Bearer/);
    nothingShown();
    expect(rx.receiver.stats().outcomes).toMatchObject({ 'no-credential': 2, 'bad-credential': 3 });
  });

  it('refuses a token past its age, and takes one a rotation replaced', async () => {
    const old = await pushCredentials({ secret: SECRET, now: () => Date.now() - 8 * 24 * 3600_000 }).issue(A);
    expect((await post(rx.url, statusPush('t-1', A), bearer(old))).status).toBe(401);
    const rotated = await startReceiver({ secret: 'the-new-secret-0123456789abcdef', previousSecrets: [SECRET] });
    rotated.follow(A);
    expect((await post(rotated.url, statusPush('t-1', A), bearer(token))).status).toBe(204);
    expect(rotated.shown.get(A)).toHaveLength(1);
    await rotated.close();
    nothingShown();
  });

  it('refuses a push about a task of another thread than the credential names: 403, nothing shown', async () => {
    const answer = await post(rx.url, statusPush('t-of-b', B), bearer(token));
    expect(answer.status).toBe(403);
    const noThread = await post(
      rx.url,
      JSON.stringify({ statusUpdate: { taskId: 't-1', status: { state: 'TASK_STATE_WORKING' } } }),
      bearer(token),
    );
    expect(noThread.status).toBe(400);
    nothingShown();
  });

  it('takes a replayed push once: the same bytes again are answered 204 and shown no more', async () => {
    const body = statusPush('t-1', A, 'TASK_STATE_COMPLETED', '2026-12-05T00:00:00.000Z');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await post(rx.url, body, bearer(token))).status);
    expect(answers).toEqual([204, 204, 204, 204, 204]);
    expect(rx.shown.get(A)).toHaveLength(1);
    expect(rx.receiver.stats().outcomes).toMatchObject({ taken: 1, duplicate: 4 });
  });

  it('refuses a 10 MB body, declared or streamed, without reading it: 413', async () => {
    const big = new Uint8Array(10 * 1024 * 1024).fill(0x20);
    expect((await post(rx.url, big, bearer(token))).status).toBe(413);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= big.length) return controller.close();
        controller.enqueue(big.subarray(sent, sent + 64 * 1024));
        sent += 64 * 1024;
      },
    });
    const streamed = await post(rx.url, stream, bearer(token)).catch((error: unknown) => error);
    if (streamed instanceof Response) expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(big.length);
    nothingShown();
  });

  it('refuses what is not a push: another method, another media type, malformed JSON, an unknown shape', async () => {
    const answers = await Promise.all([
      fetch(rx.url, { method: 'GET', headers: bearer(token) }),
      post(rx.url, statusPush('t-1', A), { ...bearer(token), 'content-type': 'text/plain' }),
      post(rx.url, '{"statusUpdate":', bearer(token)),
      post(rx.url, JSON.stringify({ hello: 'world' }), bearer(token)),
      post(rx.url, JSON.stringify([1, 2]), bearer(token)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([405, 415, 400, 400, 400]);
    nothingShown();
  });

  it('answers a flood of one thread with 429 and Retry-After, and shows only what it took', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        post(rx.url, statusPush(`t-${i}`, A, 'TASK_STATE_WORKING', `2026-12-05T00:00:${String(i).padStart(2, '0')}.000Z`), bearer(token)),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 204).length).toBeLessThanOrEqual(21);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(39);
    expect(answers.find((answer) => answer.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(rx.shown.get(A)!.length).toBe(statuses.filter((status) => status === 204).length);
    // Another thread is not slowed by the flood.
    const other = (await firstValueFrom(rx.receiver.target(B))).token;
    expect((await post(rx.url, statusPush('t-b', B), bearer(other))).status).toBe(204);
  });

  it('reads v0.3 bodies: a whole Task as @a2a-js/sdk 0.3 posts it, with the token header', async () => {
    const task = {
      kind: 'task',
      id: 't-3',
      contextId: A,
      status: { state: 'completed', timestamp: '2026-12-05T00:00:00Z' },
      artifacts: [],
    };
    expect(
      (await post(rx.url, JSON.stringify(task), { 'content-type': 'application/json', 'x-a2a-notification-token': token })).status,
    ).toBe(204);
    expect(rx.shown.get(A)).toEqual([expect.objectContaining({ kind: 'task', task: expect.objectContaining({ id: 't-3' }) })]);
  });

  it('keeps a pushed task of a thread nobody follows for no one: unclaimed, counted, told', async () => {
    const told: string[] = [];
    const lone = await startReceiver({ onUnclaimed: (push) => told.push(`${push.contextId}/${push.taskId}`) });
    const own = (await firstValueFrom(lone.receiver.target(A))).token;
    expect((await post(lone.url, statusPush('t-9', A), bearer(own))).status).toBe(204);
    expect(told).toEqual([`${A}/t-9`]);
    expect(lone.receiver.stats()).toMatchObject({ outcomes: { taken: 1, unclaimed: 1 }, following: 0 });
    await lone.close();
  });
});

describe('pushHandler with deliver', () => {
  it('checks and answers a push it does not deliver, as any other, and shows it to no one', async () => {
    const { createServer } = await import('node:http');
    const { pushHandler } = await import('../../src/node/push-handler.js');
    const server = createServer(pushHandler(rx.receiver, { deliver: (request) => request.url === '/mine' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    expect((await post(`${base}/other`, statusPush('t-1', A))).status).toBe(401);
    expect((await post(`${base}/other`, statusPush('t-1', A), bearer(token))).status).toBe(204);
    nothingShown();
    expect((await post(`${base}/mine`, statusPush('t-2', A), bearer(token))).status).toBe(204);
    expect(rx.shown.get(A)).toHaveLength(1);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
