/**
 * A2UI through the gateway example: the A2UI fixture agent (fixtures/agent-a2ui.ts, v1.0 on @a2a-js/sdk
 * 1.3) behind three replicas and Debian's haproxy, followed by the example's client. A form arrives as a
 * `surface` frame with its messages; `surfaceAction`'s own fields are not a message body (the gateway's
 * action body is a2ui-action.test.ts's); a `javascript:` surface is a `surface-refused` frame and nothing
 * of it is sent; a replica killed mid-turn resumes elsewhere, and the client is given each message of a
 * surface once although the resumed stream gives them again.
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EVIL_URL } from '../../fixtures/a2ui-hostile.js';
import { formMessages } from '../../fixtures/a2ui-protocol.js';
import { followTurn, type Followed } from '../../examples/gateway/client-follow.mjs';
import { surfacesOf, useA2UIRig } from './a2ui-rig.js';
import { surfaceAction, type SurfaceView } from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const SECRET = 'a2ui-gateway-test-secret-not-for-production';
const USER = 'ada';
/** The fixture's pause between a turn's steps: a killed replica's client is back before the task ends. */
const STEP_MS = 300;

const rig = useA2UIRig({ prefix: 'a4h-a2ui-gateway-', secret: SECRET, user: USER, agent: { timing: { stepMs: STEP_MS } } });

/** A turn through haproxy, every event the client gave kept. */
const follow = (thread: string, text: string, more: Partial<Parameters<typeof followTurn>[0]> = {}) =>
  rig.follow(thread, { text, ...more });

/** Each agent message given to the client, as JSON, per surface. */
const givenMessages = (events: Array<{ type: string }>) =>
  surfacesOf(events).flatMap((e) => e.messages.map((m) => JSON.stringify(m.message)));

describe('A2UI through the gateway (three replicas behind haproxy)', { timeout: 60_000 }, () => {
  it("a form arrives as one surface frame with the agent's messages (kind, surfaceId, version, message), and as the end's surfaces", async () => {
    const { followed, events } = await follow('form', 'form');
    const [surface, ...more] = surfacesOf(events);
    expect(more).toEqual([]);
    expect(surface).toBeDefined();
    const surfaceId = surface!.surfaceId;
    expect(surfaceId).toMatch(/^form-[0-9a-f]{8}$/);
    expect(rig.agents.surfaces('v1', '/')).toContain(surfaceId);
    const sent = formMessages('v1.0', surfaceId);
    expect(Object.keys(surface!).sort()).toEqual(['messages', 'surfaceId', 'type']);
    expect(surface!.messages).toEqual(
      sent.map((message) => ({ kind: Object.keys(message).find((k) => k !== 'version'), surfaceId, version: 'v1.0', message })),
    );
    expect(followed.end).toMatchObject({ outcome: 'completed', surfaces: [{ surfaceId, messages: surface!.messages }] });
    expect(followed.replayed).toBe(0);
  });

  it("surfaceAction's own fields posted as they are: 400 alone and beside a text, nothing reaches the agent (an action goes as {action, surface}: a2ui-action.test.ts)", async () => {
    const { followed } = await follow('action', 'form');
    const surface = followed.end!.surfaces![0]! as unknown as SurfaceView;
    const action = surfaceAction({
      surface,
      name: 'submit',
      sourceComponentId: 'submit',
      context: { choice: ['coffee'] },
      dataModel: { choice: ['coffee'] },
    });
    expect(action.data).toHaveLength(1);
    expect(action.metadata).toHaveProperty('a2uiClientDataModel');
    const post = (body: unknown) =>
      fetch(new URL('threads/action/messages', rig.cluster.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${rig.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
    const before = rig.agents.record('v1', '/').length;
    // surfaceAction's own fields: its text is empty, and the body carries neither a text nor the gateway's action.
    const alone = await post(action);
    expect(alone.status).toBe(400);
    expect(await alone.json()).toEqual({
      error: 'the body must be {"text": "<a message>"} or an A2UI action {"action": {…}, "surface": {…}}',
    });
    // With a text beside them: refused whole, nothing dropped silently.
    const beside = await post({ ...action, text: 'submit coffee' });
    expect(beside.status).toBe(400);
    expect(await beside.json()).toEqual({ error: 'a message has a field the gateway does not read' });
    expect(rig.agents.record('v1', '/').slice(before)).toEqual([]);
  });

  it('evil-url: a surface-refused frame (reason, the gateway sentence) and no frame of the stream holds javascript:', async () => {
    const response = await fetch(new URL('threads/evil/messages', rig.cluster.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ text: 'evil-url' }),
    });
    const text = await response.text();
    expect(text).toContain('event: end');
    expect(text.toLowerCase()).not.toContain('javascript');
    expect(text).not.toContain(EVIL_URL.slice('javascript:'.length));
    const refused = [...text.matchAll(/^event: surface-refused\n(?:id: .*\n)?data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as unknown);
    const surfaceId = rig.agents.surfaces('v1', '/').at(-1)!;
    expect(surfaceId).toMatch(/^evil-url-/);
    expect(refused).toEqual([
      { type: 'surface-refused', reason: 'unsafe-url', message: 'a part of the interface carried a link a browser would run', surfaceId },
    ]);
  });

  // kill -9 of the replica streaming the turn, at a surface frame (or a refusal): the client resumes through another
  // replica, which did not see the parts and gives them again from the task's snapshot.
  const cases = [
    { behaviour: 'form', killAt: 1 },
    { behaviour: 'form-chunks', killAt: 1 },
    { behaviour: 'form-chunks', killAt: 2 },
    { behaviour: 'sdk-form', killAt: 2 },
    { behaviour: 'evil-url', killAt: 1 },
  ] as const;
  it.each(cases)(
    '$behaviour, the replica killed at A2UI frame $killAt: each message of the surface given once, the refusal once',
    async ({ behaviour, killAt }) => {
      let serving = '';
      let frames = 0;
      let killed: string | undefined;
      let killing: Promise<void> | undefined;
      const thread = `kill-${behaviour}-${killAt}`;
      let followed: Followed;
      let events: Array<{ type: string; [key: string]: unknown }>;
      try {
        ({ followed, events } = await follow(thread, behaviour, {
          onStream: (replica) => (serving = replica),
          onEvent: (event) => {
            if (event.type !== 'surface' && event.type !== 'surface-refused') return;
            frames += 1;
            if (frames === killAt && killing === undefined) {
              killed = serving;
              killing = rig.cluster.kill(serving);
            }
          },
        }));
      } finally {
        await killing;
        if (killed !== undefined) await rig.cluster.restart(killed);
      }
      expect(killed).toBeDefined();
      expect(followed.replicas.length).toBeGreaterThanOrEqual(2);
      expect(followed.replicas.at(-1)).not.toBe(killed);
      expect(followed.end?.outcome).toBe('completed');
      expect(followed.reply).toBe(followed.end!.text);
      // The turn's surface as it stands at the end: every message of it given once, none twice.
      const view = followed.end!.surfaces ?? [];
      expect(view).toHaveLength(1);
      const given = givenMessages(events);
      expect(given.sort()).toEqual(view[0]!.messages.map((m) => JSON.stringify(m.message)).sort());
      expect(given.filter((m) => m.includes('"createSurface"'))).toHaveLength(1);
      expect(events.filter((e) => e.type === 'surface-refused')).toHaveLength(behaviour === 'evil-url' ? 1 : 0);
      // The wire gave them again: the resumed turn does not know what the client was given.
      expect(followed.replayed).toBeGreaterThan(0);
      console.log(
        `${behaviour} killed at A2UI frame ${killAt}: replicas ${followed.replicas.join(' → ')}, A2UI frames given ${frames}, ` +
          `messages given ${given.length}, given again by the resumed stream and dropped ${followed.replayed}`,
      );
    },
  );

  it('the command says once per surface that one came and that a terminal cannot draw it, and says a refusal', async () => {
    const env = { ...process.env, A4H_GATEWAY_TOKEN: rig.token };
    const client = (...words: string[]) =>
      run(process.execPath, ['examples/gateway/client.mjs', rig.cluster.url, 'command', ...words], { cwd: ROOT, env });
    // form-chunks: three surface frames for one surface, one line.
    const drawn = await client('form-chunks');
    const lines = drawn.stderr.split('\n').filter((line) => line.includes('A2UI surface'));
    const surfaceId = rig.agents.surfaces('v1', '/').at(-1)!;
    expect(lines).toEqual([
      `[the agent sent an interface (A2UI surface "${surfaceId}"); a terminal cannot draw it: open the thread in a page that renders A2UI]`,
    ]);
    expect(drawn.stderr).toContain('[completed; replicas:');
    const evil = await client('evil-url');
    expect(evil.stderr).toContain(
      '[an interface from the agent was refused: a part of the interface carried a link a browser would run]\n',
    );
    expect(evil.stderr.toLowerCase()).not.toContain('javascript');
  });
});
