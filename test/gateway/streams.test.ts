/**
 * More streams than connections: 400 clients at once through one replica of the gateway example (its
 * default bound, 240 streams, and a pool of 256 connections to the agent), the demo agent 50 ms away.
 * Half the clients leave at a random moment in their first 6 s (a reply streams for about 5) and come back 0–1 s later with their
 * message's id and when they sent it, as a browser tab reloaded would. Issue 46 found messages waiting
 * inside the replica for a connection here (11.7 s at p99 from POST to the task named at 400 streams)
 * and taken messages never sent because their clients left while they waited. Counted against the
 * agent's own record; a message the replica takes must be on its way to the agent at once.
 *
 * Needs the built library (`npm run build`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { freePort, startReplica, type Replica } from '../../examples/gateway/cluster.mjs';
import { FAIR_USE_OFF } from '../../examples/gateway/fair-use.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks, ledger } from './agent-truth.js';
import { rigOf } from './rig.js';

const SECRET = 'streams-test-secret-not-for-production';
const USER = 'crowd';
const CLIENTS = 400;
let replica: Replica;
/** When each message left the replica for the agent (the far agent hears it), each time, by message id. */
const atAgent = new Map<string, number[]>();
/** When the replica took each message (its log line), each time, by message id. */
const taken = new Map<string, number[]>();
const note = (times: Map<string, number[]>, id: string) => times.set(id, [...(times.get(id) ?? []), Date.now()]);

const SEND = /"method":\s*"(SendMessage|SendStreamingMessage)"/;

const rig = rigOf('a4h-streams-test-', SECRET, USER, {
  // 250 ms a word: each reply streams for about 5 s, so the 400 overlap (and a message made to wait for a connection waits that long).
  agent: { chunkDelayMs: 250 },
  rttMs: 50,
  onRequest: (body) => {
    const id = SEND.test(body) ? /"messageId":\s*"([^"]+)"/.exec(body)?.[1] : undefined;
    if (id !== undefined) note(atAgent, id);
  },
  cluster: false,
  needs: { haproxy: false },
});

beforeAll(async () => {
  replica = await startReplica({
    agent: rig.far.url,
    port: await freePort(),
    name: 'R',
    secret: SECRET,
    auth: rig.auth,
    fairUse: FAIR_USE_OFF, // the clients are one user
    log: (line) => {
      const id = /: message "([^"]+)"/.exec(line)?.[1];
      if (id !== undefined) note(taken, id);
    },
  });
}, 30_000);

afterAll(async () => {
  await replica?.stop();
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe('400 streams through one replica, half the clients leaving and coming back', () => {
  it(
    'none lost, none doubled, every reply whole; past its bound the replica refuses (503) and what it takes goes at once',
    { timeout: 120_000 },
    async () => {
      const gateway = `http://127.0.0.1:${replica.port}/`;
      let refused = 0;
      /** Counts the replica's refusals; remembers the message's id and when it was first posted. */
      const watching =
        (sent: { id?: string; at?: number }): typeof fetch =>
        async (url, init) => {
          if (init?.method === 'POST' && typeof init.body === 'string') {
            sent.id = JSON.parse(init.body).messageId;
            sent.at ??= Date.now();
          }
          const response = await fetch(url, init);
          if (response.status === 503) refused += 1;
          return response;
        };
      const client = async (i: number): Promise<{ thread: string; followed: Followed; namedMs?: number }> => {
        const thread = `crowd-${i}`;
        const text = `hello from ${thread}`;
        const started = Date.now();
        let namedMs: number | undefined;
        const onEvent = (event: { type: string }) => {
          if (event.type === 'task') namedMs ??= Date.now() - started;
        };
        const sent: { id?: string; at?: number } = {};
        const common = { gateway, token: rig.token, thread, text, onEvent, fetch: watching(sent) };
        if (i % 2 === 0) return { thread, followed: await followTurn(common), namedMs };
        const leave = new AbortController();
        const timer = setTimeout(() => leave.abort(), Math.random() * 6_000);
        try {
          return { thread, followed: await followTurn({ ...common, signal: leave.signal }), namedMs };
        } catch (error) {
          if (!leave.signal.aborted) throw error;
        } finally {
          clearTimeout(timer);
        }
        await sleep(Math.random() * 1_000);
        // Back: the message asked for by its id (sent again only if the agent never got it), or sent if it never left.
        const back =
          sent.id === undefined ? common : { ...common, messageId: sent.id, ...(sent.at === undefined ? {} : { sentAt: sent.at }) };
        return { thread, followed: await followTurn(back), namedMs };
      };
      const turns = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));

      const counted = await Promise.all(
        turns.map(async ({ thread, followed }) =>
          ledger([followed.messageId!], await agentTasks(rig.agent.url, await deriveContextId(SECRET, USER, thread))),
        ),
      );
      const book = {
        lost: counted.reduce((n, c) => n + c.lost.length, 0),
        doubled: counted.reduce((n, c) => n + c.doubled.length, 0),
        orphaned: counted.reduce((n, c) => n + c.orphaned.length, 0),
      };
      // Taken by the replica → on its way to the agent: at once, never waiting for a connection. Each
      // send the agent got is matched to the replica's last take before it; a take with no send before
      // the next take (or the end) was left unsent: its client left before it went.
      const waits: number[] = [];
      let unsent = 0;
      for (const [id, takes] of taken) {
        const sends = atAgent.get(id) ?? [];
        takes.forEach((at, k) => {
          const send = sends.find((t) => t >= at && t < (takes[k + 1] ?? Infinity));
          if (send === undefined) unsent += 1;
          else waits.push(send - at);
        });
      }
      // The clients that stayed: their first POST → the task named, 503s and their pauses included.
      const named = turns.flatMap((t, i) => (i % 2 === 1 || t.namedMs === undefined ? [] : [t.namedMs]));
      console.log(
        `400 streams, one replica: refused ${refused} times (503); taken → at the agent p50 ${percentile(waits, 50)} ms, ` +
          `p99 ${percentile(waits, 99)} ms, max ${Math.max(...waits)} ms; staying clients' first POST → task named p50 ${percentile(named, 50)} ms, ` +
          `p99 ${percentile(named, 99)} ms; taken and not sent (their clients left first) ${unsent}`,
      );
      expect(book).toEqual({ lost: 0, doubled: 0, orphaned: 0 });
      for (const { followed } of turns) {
        expect(followed.error).toBeUndefined();
        expect(followed.end).toMatchObject({ outcome: 'completed' });
        expect(followed.reply).toBe(followed.end!.text);
      }
      expect(refused).toBeGreaterThan(0);
      expect(Math.max(...waits)).toBeLessThan(2_000);
    },
  );
});
