/**
 * Fair use through a replica of the gateway example (a process of its own, its default limits: 30
 * messages a minute and 4 streams at once per person), the demo agent 20 ms away. One person floods
 * it at 100 messages a second while another person chats: the flood is answered 429 with a
 * `Retry-After` and nothing refused reaches the agent (counted where the agent hears requests, and
 * in its own record of tasks), each message taken reaches it once, and the other person's reply
 * times under the flood stay near their times alone (p99 of each, printed). A person's fifth turn at
 * once is refused, and the gateway's client (client-follow.mjs) waits its Retry-After and sends it once.
 *
 * To see the flood starve the other person, run the same with the limits off:
 * `A4H_FAIR_USE_TEST_LIMITS_OFF=1 npx vitest run test/gateway/fair-use.test.ts` (the p99 bound fails).
 *
 * Needs the built library (`npm run build`).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { freePort, startReplica, type Replica } from '../../examples/gateway/cluster.mjs';
import { FAIR_USE_OFF, MESSAGES_PER_MINUTE, TURNS_PER_PERSON } from '../../examples/gateway/fair-use.mjs';
import { devIssuer } from '../../examples/gateway/token.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';
import { startFarAgent, type FarAgent } from './far-agent.js';

const SECRET = 'fair-use-test-secret-not-for-production';
const LIMITS_OFF = process.env.A4H_FAIR_USE_TEST_LIMITS_OFF === '1';
const SEND = /"method":\s*"(SendMessage|SendStreamingMessage)"/;

let dir = '';
let agent: DemoAgent | undefined;
let far: FarAgent | undefined;
let replica: Replica | undefined;
let url = '';
const tokens: Record<string, string> = {};
/** Each message id the agent was sent, as many times as it was. */
const atAgent: string[] = [];
const log: string[] = [];

beforeAll(async () => {
  if (!existsSync(new URL('../../dist/node/index.js', import.meta.url))) throw new Error('run npm run build first');
  dir = await mkdtemp(join(tmpdir(), 'a4h-fair-use-test-'));
  const issuer = await devIssuer(join(dir, 'issuer'));
  for (const user of ['mallory', 'bob', 'carol', 'dave']) tokens[user] = await issuer.sign(user);
  // 10 ms a word: a chat reply streams in about a third of a second; a `slow` one takes 300 ms a word (about 6 s).
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 10 });
  far = await startFarAgent(agent.url, 20, (body) => {
    const id = SEND.test(body) ? /"messageId":\s*"([^"]+)"/.exec(body)?.[1] : undefined;
    if (id !== undefined) atAgent.push(id);
  });
  replica = await startReplica({
    agent: far.url,
    port: await freePort(),
    name: 'F',
    secret: SECRET,
    auth: { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience },
    ...(LIMITS_OFF ? { fairUse: FAIR_USE_OFF } : {}),
    log: (line) => log.push(line),
  });
  url = `http://127.0.0.1:${replica.port}/`;
}, 30_000);

afterAll(async () => {
  await replica?.stop();
  await far?.close();
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One raw POST of a message, as a script would send it. */
const post = (user: string, thread: string, text: string, messageId: string) =>
  fetch(new URL(`threads/${thread}/messages`, url), {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, messageId }),
  });

/** The nearest-rank percentile `p` of `values`. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** The message ids the agent's tasks carry for `user` on `threads`. */
const carried = async (user: string, threads: string[]) => {
  const ids: string[] = [];
  for (const thread of threads) {
    for (const task of await agentTasks(agent!.url, await deriveContextId(SECRET, user, thread), false)) ids.push(...task.messageIds);
  }
  return ids.sort();
};

/** A refusal as the flood saw it. */
interface Refused {
  status: number;
  retryAfter: string | null;
  taken: string | null;
  type: string | null;
  body: { error?: string; limit?: string; retryAfter?: number };
}

/** Bob's reply times (ms), `count` messages one after the other (none started once `going` says no). */
async function bobsReplies(count: number, label: string, going = () => true): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count && going(); i++) {
    const started = performance.now();
    const followed = await followTurn({ gateway: url, token: tokens.bob, thread: `bob-${label}`, text: `hello ${label} ${i}` });
    expect(followed.end?.outcome).toBe('completed');
    times.push(performance.now() - started);
  }
  return times;
}

describe('fair use per person', { timeout: 120_000 }, () => {
  it("100 messages a second from one person: 429s with Retry-After, nothing refused at the agent; another person's replies as quick as alone", async () => {
    const REPLIES = 12;
    await bobsReplies(2, 'warm'); // the replica's and the agent's first turns
    const alone = await bobsReplies(REPLIES, 'alone');

    // Mallory's script: a slow message every 10 ms on five threads, each stream read to its end.
    const threads = Array.from({ length: 5 }, (_, i) => `flood-${i}`);
    const accepted: string[] = [];
    const refused: Refused[] = [];
    const other: number[] = [];
    const reading: Array<Promise<unknown>> = [];
    // Until bob's replies are done, and at most 10 s (with the limits off, bob may wait that long).
    let flooding = true;
    const flood = (async () => {
      const started = performance.now();
      for (let i = 0; flooding && performance.now() - started < 10_000; i++) {
        const wait = started + i * 10 - performance.now();
        if (wait > 0) await sleep(wait);
        const id = `flood-${i}`;
        reading.push(
          post('mallory', threads[i % threads.length]!, `slow flood ${i}`, id).then(
            async (response) => {
              if (response.status === 200) {
                accepted.push(id);
                return response.text();
              }
              const text = await response.text();
              const headers = response.headers;
              const body = headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : {};
              return refused.push({
                status: response.status,
                retryAfter: headers.get('retry-after'),
                taken: headers.get('x-message-taken'),
                type: headers.get('content-type'),
                body,
              });
            },
            (error: unknown) => other.push(String(error).length),
          ),
        );
      }
      return performance.now() - started;
    })();
    await sleep(500); // the flood under way
    let floodMs = 0;
    void flood.then((ms) => (floodMs = ms));
    const underFlood = await bobsReplies(REPLIES, 'flood', () => floodMs === 0);
    flooding = false;
    await flood;
    const sent = reading.length;
    const figures = {
      alone: { p50: Math.round(percentile(alone, 50)), p99: Math.round(percentile(alone, 99)) },
      underFlood: { n: underFlood.length, p50: Math.round(percentile(underFlood, 50)), p99: Math.round(percentile(underFlood, 99)) },
      flood: { sent, seconds: +(floodMs / 1000).toFixed(1) },
    };
    console.log(`fair use: bob's reply times (ms, ${REPLIES} each) and mallory's flood`, JSON.stringify(figures));
    // The flood was a flood: about 100 a second for seconds.
    expect(floodMs).toBeGreaterThan(3_000);
    expect(sent / (floodMs / 1000)).toBeGreaterThan(60);
    // Bob's replies under the flood: all of them, their p99 within twice his p99 alone and a quarter second.
    expect(underFlood.length).toBe(REPLIES);
    expect(figures.underFlood.p99).toBeLessThanOrEqual(2 * figures.alone.p99 + 250);

    await Promise.all(reading); // every accepted stream read to its end
    console.log(`fair use: mallory's flood`, JSON.stringify({ sent, accepted: accepted.length, refused: refused.length }));

    // Each refusal: 429, a whole number of seconds, not taken, the gateway's JSON naming the limit.
    expect(other).toEqual([]);
    expect(refused.length).toBeGreaterThan(sent * 0.9);
    for (const r of refused) {
      expect(r).toMatchObject({ status: 429, taken: 'no', type: 'application/json; charset=utf-8' });
      expect(r.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(r.body).toMatchObject({ retryAfter: Number(r.retryAfter), limit: expect.stringMatching(/^(turns|messages)$/) });
      expect(r.body.error).toMatch(/^you have /);
    }
    // Mallory had at most 4 streams at once: 4, then one more as each ~6 s reply ended.
    expect(accepted.length).toBeGreaterThanOrEqual(TURNS_PER_PERSON);
    expect(accepted.length).toBeLessThanOrEqual(MESSAGES_PER_MINUTE);
    // At the agent: each accepted message once, nothing refused; its tasks carry the same.
    expect([...atAgent.filter((id) => id.startsWith('flood-'))].sort()).toEqual([...accepted].sort());
    expect(await carried('mallory', threads)).toEqual([...accepted].sort());
    // The replica said so once per run of refusals, not once per refusal.
    expect(log.filter((line) => line.includes('"mallory": over')).length).toBeLessThan(accepted.length + 2);
  });

  it('a message flood whose streams are dropped at once: 30 taken in the minute, then 429 saying when the minute frees one', async () => {
    // 100 a second until twenty were refused for the minute (a few may meet her streams' limit first, on a slow box).
    const threads = ['drop-0', 'drop-1'];
    const accepted: string[] = [];
    const limits: Record<string, number> = {};
    let lastRetryAfter = 0;
    const started = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < 1_000 && (limits.messages ?? 0) < 20; i++) {
      const wait = started + i * 10 - performance.now();
      if (wait > 0) await sleep(wait);
      const id = `drop-${i}`;
      sends.push(
        post('carol', threads[i % 2]!, `hello ${i}`, id).then(async (response) => {
          if (response.status === 200) {
            accepted.push(id);
            await response.body?.cancel(); // the head came: the agent named the task; the script leaves
            return;
          }
          const body = (await response.json()) as { limit: string; retryAfter: number };
          limits[body.limit] = (limits[body.limit] ?? 0) + 1;
          if (body.limit === 'messages') lastRetryAfter = body.retryAfter;
          expect(response.headers.get('retry-after')).toBe(String(body.retryAfter));
        }),
      );
    }
    await Promise.all(sends);
    // Thirty in the minute; past them each refusal names the messages limit and the rest of the minute (under 60 s).
    expect(accepted.length).toBe(MESSAGES_PER_MINUTE);
    expect(limits.messages).toBeGreaterThan(0);
    expect(lastRetryAfter).toBeGreaterThan(55);
    expect(lastRetryAfter).toBeLessThanOrEqual(60);
    // The turns the script left go on at the agent (detached); each message there once, none refused.
    await sleep(200);
    expect(atAgent.filter((id) => id.startsWith('drop-')).sort()).toEqual([...accepted].sort());
    expect(await carried('carol', threads)).toEqual([...accepted].sort());
  });

  it("a person's fifth turn at once is 429 (a resume too); the gateway's client waits its Retry-After and sends it once", async () => {
    const first = await Promise.all(
      Array.from({ length: TURNS_PER_PERSON + 1 }, (_, i) => post('dave', `d-${i}`, `slow turn ${i}`, `dave-${i}`)),
    );
    const statuses = first.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array.from({ length: TURNS_PER_PERSON }, () => 200), 429]);
    const refusedOne = first.find((response) => response.status === 429)!;
    expect(await refusedOne.json()).toMatchObject({ limit: 'turns', retryAfter: 1 });
    const resume = await fetch(new URL('threads/d-0/events', url), { headers: { authorization: `Bearer ${tokens.dave}` } });
    expect([resume.status, resume.headers.get('retry-after')]).toEqual([429, '1']);
    await resume.body?.cancel();
    // Another person is not held by dave's turns.
    expect((await followTurn({ gateway: url, token: tokens.bob, thread: 'bob-beside-dave', text: 'hi' })).end?.outcome).toBe('completed');
    // Dave's client sends a sixth message: refused while his four stream, sent once one of them ends.
    const reading = first.filter((response) => response.status === 200).map((response) => response.text());
    const statusesSeen: number[] = [];
    const followed = await followTurn({
      gateway: url,
      token: tokens.dave,
      thread: 'd-more',
      text: 'hello again',
      messageId: undefined,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        statusesSeen.push(response.status);
        return response;
      },
    });
    await Promise.all(reading);
    expect(followed.end?.outcome).toBe('completed');
    expect(followed.resent).toBe(0);
    expect(statusesSeen.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statusesSeen.at(-1)).toBe(200);
    // Only POSTs of the message (X-Message-Taken: no): never asked for, and at the agent once.
    expect(atAgent.filter((id) => id === followed.messageId)).toEqual([followed.messageId]);
    expect(await carried('dave', ['d-more'])).toEqual([followed.messageId]);
  });
});
