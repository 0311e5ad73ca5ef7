/**
 * Clients that do not read, against one gateway replica process in front of an agent that answers
 * 4 MB (with the end that repeats it, more than the kernel's socket buffers hold): clients that
 * never read a byte leave the replica alive (no write after a stream's end, no unhandled error) and
 * are let go (their turns go on at the agent, detached); one that stops reading is dropped, resumes
 * with its last id and gets exactly the rest (and the end that repeats it all). The chaos run
 * (`npm run test:chaos`) sends twenty, twice, and measures the replica's memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../fixtures/http-host.js';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { freePort, startReplica, type Replica } from '../../examples/gateway/cluster.mjs';
import { devIssuer } from '../../examples/gateway/token.mjs';
import { deriveContextId } from '../../src/index.js';
import { eventually } from '../eventually.js';
import { agentTasks } from './agent-truth.js';
import { BIG_REPLY, postUnframed, startBigAgent } from './big-agent.js';

const SECRET = 'slow-clients-test-secret-not-for-production';
const USER = 'linus';

let dir = '';
let host: Host;
let replica: Replica;
let url = '';
let token = '';
const log: string[] = [];
const sockets: Socket[] = [];

const tasksOf = async (thread: string) => agentTasks(host.agent.url('/'), await deriveContextId(SECRET, USER, thread), false);
const dropped = (thread: string) => log.some((line) => line.includes(`"${thread}": dropped a client`));

const open = (thread: string) => {
  const socket = postUnframed(replica.port, thread, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-slow-clients-test-'));
  const issuer = await devIssuer(join(dir, 'issuer'));
  token = await issuer.sign(USER);
  host = await startBigAgent();
  const auth = { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience };
  // A short heartbeat: a heartbeat written after a stream's end would crash the replica at once.
  replica = await startReplica({
    agent: host.agent.url('/'),
    port: await freePort(),
    name: 'R',
    secret: SECRET,
    auth,
    heartbeatMs: 200,
    log: (line) => log.push(line),
  });
  url = `http://127.0.0.1:${replica.port}/`;
}, 30_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await replica?.kill();
  await host?.agent.close();
  await rm(dir, { recursive: true, force: true });
});

describe('clients that do not read', { timeout: 60_000 }, () => {
  it('clients that never read a 4 MB reply are dropped: the replica lives and keeps nothing of them; their turns finish at the agent', async () => {
    const threads = ['never-reads-1', 'never-reads-2'];
    for (const thread of threads) {
      const socket = open(thread);
      socket.pause(); // and never read
    }
    // Each is let go: the unread reply is more than the kernel holds, so the rest would wait in the replica.
    await eventually(() => threads.every((thread) => dropped(thread)), 30_000);
    const states = async () => (await Promise.all(threads.map(tasksOf))).flat().map((t) => t.state);
    for (let i = 0; i < 50 && (await states()).some((s) => s !== 'TASK_STATE_COMPLETED'); i++) await sleep(100);
    expect(await states()).toEqual(threads.map(() => 'TASK_STATE_COMPLETED'));
    // Some heartbeats later (a heartbeat after a stream's end would have crashed it), alive and serving.
    await sleep(600);
    expect((await fetch(new URL('healthz', url))).status).toBe(200);
    expect(await Promise.race([replica.exited.then(() => 'exited'), sleep(100).then(() => 'alive')])).toBe('alive');
  });

  it('a client that stops reading is dropped; it resumes with its last id and gets exactly the rest', async () => {
    const socket = open('paused');
    let reply = '';
    let lastId: string | undefined;
    let ended = false;
    const parser = createParser({
      onEvent: (event) => {
        const data = JSON.parse(event.data) as { type: string; text?: string };
        if (data.type === 'text') reply += data.text;
        if (data.type === 'end') ended = true;
        if (event.id) lastId = event.id;
      },
    });
    let head = '';
    let received = 0;
    let stopped = false;
    const decoder = new TextDecoder();
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      let text = decoder.decode(chunk, { stream: true });
      if (!head.endsWith('\r\n\r\n')) {
        const at = (head + text).indexOf('\r\n\r\n');
        if (at < 0) return void (head += text);
        text = (head + text).slice(at + 4);
        head = `${(head + text).slice(0, at)}\r\n\r\n`;
      }
      parser.feed(text);
      if (received > 200_000 && !stopped) {
        stopped = true;
        socket.pause(); // then it stops reading
      }
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await eventually(() => dropped('paused'), 20_000);
    socket.resume(); // what was on its way, up to the break
    await closed;
    expect(ended).toBe(false);
    const rest = await followTurn({ gateway: url, token, thread: 'paused', from: lastId! });
    expect(reply + rest.reply === BIG_REPLY && rest.end?.text === BIG_REPLY).toBe(true);
    expect((await tasksOf('paused')).map((t) => t.state)).toEqual(['TASK_STATE_COMPLETED']);
  });
});
