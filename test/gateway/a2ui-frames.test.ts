/**
 * A2UI in the gateway's frames (examples/gateway/sse.mjs) and at its client (client-surfaces.mjs, client-follow.mjs),
 * without an agent: what a `surface`, a `surface-refused` and the `end`'s `surfaces` carry to a browser, named
 * field by field; refusals the library gives for hostile messages, framed without what was refused; and the
 * client giving each message once across streams that give them again, in any grouping and order.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { SurfaceReplays, surfaceNotice } from '../../examples/gateway/client-surfaces.mjs';
import { eventFrame } from '../../examples/gateway/sse.mjs';
import type { SurfaceEvent, SurfaceRefusedEvent } from '../../src/port/a2ui.js';
import type { TurnEvent } from '../../src/port/events.js';
import { SurfaceSet } from '../../src/render/a2ui/surfaces.js';

/** The JSON of the one event a frame holds, as a browser's parser reads it. */
function dataOf(frame: string): Record<string, unknown> {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(frame);
  expect(events).toHaveLength(1);
  return JSON.parse(events[0]!.data) as Record<string, unknown>;
}

const create = (surfaceId: string) => ({ version: 'v1.0', createSurface: { surfaceId, catalogId: 'basic' } });
const update = (surfaceId: string, text: string) => ({
  version: 'v1.0',
  updateComponents: { surfaceId, components: [{ id: 'root', component: 'Text', text }] },
});

/** The library's own events for one A2UI part of `messages`. */
function libraryEvents(messages: unknown[]): Array<SurfaceEvent | SurfaceRefusedEvent> {
  const out: Array<SurfaceEvent | SurfaceRefusedEvent> = [];
  new SurfaceSet().part({ kind: 'data', data: messages, mediaType: 'application/a2ui+json' }, out);
  return out;
}

describe('A2UI frames (sse.mjs)', () => {
  it('a surface frame: its id and each message by kind, surfaceId, version and message; nothing else the event holds', () => {
    const event = {
      type: 'surface',
      surfaceId: 's',
      contextId: 'ctx-of-the-thread',
      raw: 'of the agent',
      messages: [
        { kind: 'createSurface', surfaceId: 's', version: 'v1.0', message: create('s'), extra: 'no' },
        { kind: 'beginRendering', surfaceId: 's', message: { beginRendering: { surfaceId: 's', root: 'r' } } },
        { kind: 'actionResponse', version: 'v1.0', message: { version: 'v1.0', actionResponse: { actionId: 'a' } } },
      ],
    } as unknown as TurnEvent;
    expect(dataOf(eventFrame(event, '0.T'))).toEqual({
      type: 'surface',
      surfaceId: 's',
      messages: [
        { kind: 'createSurface', surfaceId: 's', version: 'v1.0', message: create('s') },
        { kind: 'beginRendering', surfaceId: 's', message: { beginRendering: { surfaceId: 's', root: 'r' } } },
        { kind: 'actionResponse', version: 'v1.0', message: { version: 'v1.0', actionResponse: { actionId: 'a' } } },
      ],
    });
  });

  it("the end's surfaces: each as it stands, the same fields; no contextId", () => {
    const end = {
      type: 'end',
      outcome: 'completed',
      text: '',
      taskId: 'T',
      contextId: 'ctx-of-the-thread',
      surfaces: [
        { surfaceId: 's', messages: [{ kind: 'createSurface', surfaceId: 's', version: 'v1.0', message: create('s'), extra: 1 }] },
      ],
    } as unknown as TurnEvent;
    const data = dataOf(eventFrame(end, '0.T'));
    expect(data['surfaces']).toEqual([
      { surfaceId: 's', messages: [{ kind: 'createSurface', surfaceId: 's', version: 'v1.0', message: create('s') }] },
    ]);
    expect(JSON.stringify(data)).not.toContain('ctx-of-the-thread');
  });

  // Messages the library refuses, as an attacker writes them: its refusal's sentence or surfaceId can carry what was refused.
  const hostile = [
    { name: 'a javascript: key', raw: { version: 'v1.0', 'javascript:alert(1)': { surfaceId: 's' } }, reason: 'malformed' },
    { name: 'a javascript: key beside an unsafe value', raw: { 'javascript:alert(2)': 'javascript:alert(3)' }, reason: 'malformed' },
    { name: 'a javascript: surfaceId', raw: create('javascript:alert(4)'), reason: 'unsafe-url' },
    { name: 'a surfaceId that is a data: URL', raw: create(' data:text/html,<script>alert(5)</script>'), reason: 'unsafe-url' },
    { name: 'a 100,000-character key', raw: { version: 'v1.0', ['k'.repeat(100_000)]: {} }, reason: 'malformed' },
  ] as const;
  it.each(hostile)(
    '$name: refused ($reason), the frame holds the reason and the gateway sentence, nothing of the message',
    ({ raw, reason }) => {
      const [refusal, ...more] = libraryEvents([raw]);
      expect(more).toEqual([]);
      expect(refusal).toMatchObject({ type: 'surface-refused', reason });
      const frame = eventFrame(refusal!, '0.T');
      const data = dataOf(frame);
      expect(Object.keys(data).sort()).toEqual(['message', 'reason', 'type']);
      expect(data['reason']).toBe(reason);
      expect(JSON.stringify(data).toLowerCase()).not.toMatch(/javascript|data:|alert|kkkk/);
      expect(frame.length).toBeLessThan(300);
    },
  );

  it('a refusal keeps the surfaceId of a surface that does not read as a URL; an unknown reason is said as malformed', () => {
    const [refusal] = libraryEvents([update('form-1', 'javascript:alert(6)')]);
    expect(dataOf(eventFrame(refusal!, undefined))).toEqual({
      type: 'surface-refused',
      reason: 'unsafe-url',
      message: 'a part of the interface carried a link a browser would run',
      surfaceId: 'form-1',
    });
    const odd = { type: 'surface-refused', reason: 'javascript:alert(7)', message: 'javascript:alert(7)' } as unknown as TurnEvent;
    expect(dataOf(eventFrame(odd, undefined))).toEqual({
      type: 'surface-refused',
      reason: 'malformed',
      message: 'a part of the interface could not be read',
    });
  });
});

/** A seeded random in [0, 1): the same orders each run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('the client gives each A2UI message once across streams (client-surfaces.mjs)', () => {
  it('a resumed stream giving a surface again with one more message: only the new one; a refusal again: nothing', () => {
    const replays = new SurfaceReplays();
    const refusal = { type: 'surface-refused', reason: 'unsafe-url', message: 'm', surfaceId: 's' };
    const m = (message: Record<string, unknown>) => ({ kind: 'k', surfaceId: 's', message });
    replays.stream();
    expect(replays.take({ type: 'surface', surfaceId: 's', messages: [m(create('s')), m(update('s', 'a'))] })).toMatchObject({
      messages: [m(create('s')), m(update('s', 'a'))],
    });
    expect(replays.take(refusal)).toBe(refusal);
    replays.stream();
    expect(replays.take({ type: 'text', text: 'x' })).toEqual({ type: 'text', text: 'x' });
    expect(replays.take({ type: 'surface', surfaceId: 's', messages: [m(create('s')), m(update('s', 'a')), m(update('s', 'b'))] })).toEqual(
      {
        type: 'surface',
        surfaceId: 's',
        messages: [m(update('s', 'b'))],
      },
    );
    expect(replays.take(refusal)).toBeUndefined();
    expect(replays.take({ type: 'surface', surfaceId: 's', messages: [m(create('s'))] })).toMatchObject({ messages: [m(create('s'))] });
    expect(replays.dropped).toBe(3);
  });

  it('the same message sent twice by the agent in one stream is given twice; so is a message of another surface', () => {
    const replays = new SurfaceReplays();
    const data = { kind: 'updateDataModel', surfaceId: 's', message: { version: 'v1.0', updateDataModel: { surfaceId: 's', value: 1 } } };
    replays.stream();
    for (let i = 0; i < 2; i++) expect(replays.take({ type: 'surface', surfaceId: 's', messages: [data] })).toBeDefined();
    expect(replays.take({ type: 'surface', surfaceId: 't', messages: [data] })).toBeDefined();
    replays.stream();
    for (let i = 0; i < 2; i++) expect(replays.take({ type: 'surface', surfaceId: 's', messages: [data] })).toBeUndefined();
    expect(replays.take({ type: 'surface', surfaceId: 's', messages: [data] })).toBeDefined();
    expect(replays.dropped).toBe(2);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'seed %i: a turn of 3 surfaces and repeats, broken at random and each stream replaying the snapshot in random groups: every message given as often as the agent sent it, first ones in order',
    (seed) => {
      const random = seeded(seed);
      const pick = (n: number) => Math.floor(random() * n);
      // The agent's messages, in order, with repeats (the same update sent again).
      const sent = Array.from({ length: 40 }, (_, i) => {
        const surfaceId = `s${pick(3)}`;
        return {
          surfaceId,
          message: { kind: 'k', surfaceId, message: i % 7 === 3 ? update(surfaceId, 'again') : update(surfaceId, `u${i}`) },
        };
      });
      const replays = new SurfaceReplays();
      const given: string[] = [];
      const give = (run: typeof sent) => {
        // One frame per run of the same surface, as the library groups them.
        for (let i = 0; i < run.length;) {
          let j = i;
          while (j < run.length && run[j]!.surfaceId === run[i]!.surfaceId) j++;
          const taken = replays.take({ type: 'surface', surfaceId: run[i]!.surfaceId, messages: run.slice(i, j).map((s) => s.message) });
          for (const message of (taken?.messages as unknown[] | undefined) ?? []) given.push(JSON.stringify(message));
          i = j;
        }
      };
      let at = 0;
      while (at < sent.length) {
        replays.stream();
        // A resumed stream gives what the agent sent so far again (the task's snapshot), then goes on live.
        if (at > 0) give(sent.slice(0, at));
        const end = Math.min(sent.length, at + 1 + pick(12));
        for (let i = at; i < end;) {
          const step = 1 + pick(3);
          give(sent.slice(i, Math.min(end, i + step)));
          i += step;
        }
        at = end;
      }
      expect(given).toEqual(sent.map((s) => JSON.stringify(s.message)));
    },
  );

  it("the command's line: once per surface, the id quoted with its controls escaped; each refusal, its controls as spaces", () => {
    const told = new Set<string>();
    const evilId = 'form\u001b[2J\u202e-1';
    expect(surfaceNotice(told, { type: 'surface', surfaceId: evilId, messages: [] })).toBe(
      '[the agent sent an interface (A2UI surface "form\\u001b[2J\\u202e-1"); a terminal cannot draw it: open the thread in a page that renders A2UI]',
    );
    expect(surfaceNotice(told, { type: 'surface', surfaceId: evilId, messages: [] })).toBeUndefined();
    expect(surfaceNotice(told, { type: 'text', text: 'x' })).toBeUndefined();
    expect(surfaceNotice(told, { type: 'surface-refused', reason: 'malformed', message: 'bad\u001b]0;x\u0007 one' })).toBe(
      '[an interface from the agent was refused: bad ]0;x  one]',
    );
  });
});

const servers: Array<{ close(): void; closeAllConnections(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('followTurn across a break (a scripted gateway)', { timeout: 15_000 }, () => {
  it("gives the caller each surface message once, counts the resumed stream's repeats in replayed, and keeps the end's surfaces whole", async () => {
    const frame = (event: Record<string, unknown>, id?: string) =>
      `event: ${String(event.type)}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
    const m = (message: Record<string, unknown>) => ({ kind: Object.keys(message)[1], surfaceId: 's', version: 'v1.0', message });
    const refused = {
      type: 'surface-refused',
      reason: 'unsafe-url',
      message: 'a part of the interface carried a link a browser would run',
      surfaceId: 's',
    };
    let requests = 0;
    const server = createServer((req, res: ServerResponse) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-replica': requests === 1 ? 'A' : 'B' });
      if (requests === 1) {
        res.write(
          frame({ type: 'task', taskId: 'T' }, '0.T') +
            frame({ type: 'surface', surfaceId: 's', messages: [m(create('s'))] }, '0.T') +
            frame(refused, '0.T'),
        );
        setTimeout(() => res.destroy(), 50);
        return;
      }
      const all = [m(create('s')), m(update('s', 'a'))];
      res.end(
        frame({ type: 'task', taskId: 'T' }, '0.T') +
          frame({ type: 'surface', surfaceId: 's', messages: all }, '0.T') +
          frame(refused, '0.T') +
          frame({ type: 'end', outcome: 'completed', text: '', taskId: 'T', surfaces: [{ surfaceId: 's', messages: all }] }, '0.T'),
      );
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const events: Array<{ type: string; [key: string]: unknown }> = [];
    const followed = await followTurn({ gateway, thread: 't', text: 'form', random: () => 0, onEvent: (event) => events.push(event) });
    const a2ui = events.filter((e) => e.type === 'surface' || e.type === 'surface-refused');
    expect(a2ui).toEqual([
      { type: 'surface', surfaceId: 's', messages: [m(create('s'))] },
      refused,
      { type: 'surface', surfaceId: 's', messages: [m(update('s', 'a'))] },
    ]);
    expect(followed.replicas).toEqual(['A', 'B']);
    expect(followed.replayed).toBe(2);
    expect(followed.end?.surfaces).toEqual([{ surfaceId: 's', messages: [m(create('s')), m(update('s', 'a'))] }]);
  });
});
