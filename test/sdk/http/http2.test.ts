/**
 * HTTP/2 where the agent speaks it (the Node entry's `http.allowH2`): the demo agent behind a TLS
 * front that speaks h2, and a client allowed one connection. Over HTTP/1.1 a streaming turn holds its
 * connection for its whole reply, so six turns take turns; over h2 they are six streams on one
 * connection, all replying at once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../../demo/agent.js';
import { speaksH2, startH2Front, type H2Front } from '../../../fixtures/h2-front.js';
import { makeCertificates, type TestCertificates } from '../../../fixtures/tls-certs.js';
import { createA2A } from '../../../src/node/create-a2a.js';

let dir = '';
let certs: TestCertificates;
let agent: DemoAgent;
let front: H2Front;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-h2-test-'));
  certs = makeCertificates();
  // 60 ms a word: a reply streams for about a second.
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 60 });
  front = await startH2Front(agent.url, certs.server);
}, 30_000);

afterAll(async () => {
  await front?.close();
  await agent?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Six turns at once through a client with one connection; for each, when its task was named and when it ended. */
async function sixTurns(allowH2: boolean) {
  const tls = { [new URL(front.url).origin]: { ca: certs.ca } };
  const a2a = createA2A({
    identitySecret: 'h2-test-secret-not-for-production',
    tls,
    http: { connections: 1, ...(allowH2 ? { allowH2: true } : {}) },
  });
  const started = Date.now();
  try {
    return await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        let named = -1;
        const events = await lastValueFrom(
          a2a.turn({ agent: front.url, handle: 'h2', thread: `${allowH2 ? 'h2' : 'h1'}-${i}`, text: `hello ${i}` }).pipe(
            tap((event) => {
              if (event.type === 'task' && named < 0) named = Date.now() - started;
            }),
            toArray(),
          ),
        );
        return { named, ended: Date.now() - started, end: events.at(-1) };
      }),
    );
  } finally {
    await a2a.close();
  }
}

describe('HTTP/2 where the agent speaks it', { timeout: 60_000 }, () => {
  it('the front speaks h2 (the fixture itself)', async () => {
    expect(await speaksH2(front.url, certs.ca)).toBe(true);
  });

  it('allowH2: six streaming turns share one connection, every task named before the first reply ends', async () => {
    const before = front.http1Requests;
    const turns = await sixTurns(true);
    for (const turn of turns) expect(turn.end).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(front.http1Requests - before).toBe(0);
    // Six streams open at once on one h2 session (the client has one connection).
    expect(front.mostConcurrentStreams).toBeGreaterThanOrEqual(6);
    const firstEnd = Math.min(...turns.map((t) => t.ended));
    expect(turns.every((t) => t.named < firstEnd)).toBe(true);
  });

  it('without it (HTTP/1.1, the default), one connection holds one reply: the turns take turns', async () => {
    const before = front.http1Requests;
    const turns = await sixTurns(false);
    for (const turn of turns) expect(turn.end).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(front.http1Requests - before).toBeGreaterThanOrEqual(6);
    const firstEnd = Math.min(...turns.map((t) => t.ended));
    expect(turns.filter((t) => t.named > firstEnd).length).toBeGreaterThan(0);
  });
});
