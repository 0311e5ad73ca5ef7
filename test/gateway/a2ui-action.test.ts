/**
 * A2UI actions through the gateway example: the A2UI fixture agent (fixtures/agent-a2ui.ts, v1.0 on
 * @a2a-js/sdk 1.3) behind three replicas and Debian's haproxy. The replicas tell the agent the catalogs
 * (its card offers A2UI: the extension activated, `a2uiClientCapabilities` on each message); a form's
 * action goes back as a message body (`action` and the surface's creation) and is answered on the same
 * surface; the data model goes only when the surface asked for it; hostile bodies are a 400 and nothing
 * reaches the agent; a replica killed after it took the action (or while the action is on its way to
 * the agent) leaves the action delivered once, counted at the agent's record.
 *
 * Needs /usr/sbin/haproxy (npm test installs it: scripts/ensure-debian.sh) and the built library.
 */
import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { A2UI_EXTENSION, CATALOG_IDS, choseText } from '../../fixtures/a2ui-protocol.js';
import { actionFields, answerFields } from '../../examples/gateway/client-bodies.mjs';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import type { GatewaySurfaceView } from '../../examples/gateway/client-surfaces.mjs';
import { a2uiCatalogsOf, A2UI_CATALOGS_ENV, DEFAULT_A2UI_CATALOGS, MAX_CONTEXT_CHARS } from '../../examples/gateway/a2ui.mjs';
import { startGateway } from '../../examples/gateway/replica.mjs';
import { surfacesOf, useA2UIRig, type GivenEvent } from './a2ui-rig.js';
import { surfaceAction, type SurfaceView } from '../../src/index.js';

const SECRET = 'a2ui-action-gateway-test-secret-not-for-production';
const USER = 'ada';
/** The fixture's pause between a turn's steps: a killed replica's client is back before the task ends. */
const STEP_MS = 300;

/** Set by a test: the next message send the agent gets is held this long before the agent reads it. */
let holdNextMs = 0;
/** Calls held so far. */
let held = 0;

/** Holds the next JSON-RPC call after {@link holdNextMs} is set (a message on its way, as a slow network would). */
const holder: RequestHandler = (req, _res, next) => {
  if (holdNextMs > 0 && req.method === 'POST') {
    const ms = holdNextMs;
    holdNextMs = 0;
    held += 1;
    setTimeout(next, ms);
  } else next();
};

const rig = useA2UIRig({
  prefix: 'a4h-a2ui-action-',
  secret: SECRET,
  user: USER,
  agent: { timing: { stepMs: STEP_MS }, before: [holder] },
});
const follow = rig.follow;

/** A behaviour's surface, drawn on `thread`. */
async function drawn(thread: string, behaviour: string): Promise<GatewaySurfaceView> {
  const { followed } = await follow(thread, { text: behaviour });
  expect(followed.end?.outcome).toBe('completed');
  const [surface] = followed.end?.surfaces ?? [];
  expect(surface).toBeDefined();
  return surface!;
}

/** The messages the agent received that carry an action on `surfaceId`. */
const actionsAt = (surfaceId: string) =>
  rig.agents
    .record('v1', '/')
    .filter(
      (r) =>
        JSON.stringify(r.message['parts']).includes(JSON.stringify(surfaceId)) &&
        /"(action|userAction)"/.test(JSON.stringify(r.message['parts'])),
    );

/** A raw POST of `body` to the thread's messages. */
const post = (thread: string, body: unknown) =>
  fetch(new URL(`threads/${thread}/messages`, rig.cluster.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${rig.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('A2UI actions through the gateway (three replicas behind haproxy)', { timeout: 60_000 }, () => {
  it("tells the agent whose card offers A2UI the catalogs (v1.0's basic by default) and activates the extension", async () => {
    const before = rig.agents.record('v1', '/').length;
    await drawn('catalogs', 'form');
    const [received, ...more] = rig.agents.record('v1', '/').slice(before);
    expect(more).toEqual([]);
    expect(DEFAULT_A2UI_CATALOGS).toEqual([CATALOG_IDS['v1.0']]);
    expect(received!.capabilities).toEqual({ 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } });
    expect(received!.extensions).toContain(A2UI_EXTENSION.v1);
  });

  it('a form, then its action as the message body: the agent gets the action with the data model, and answers on the same surface', async () => {
    const surface = await drawn('act', 'form');
    const before = rig.agents.record('v1', '/').length;
    const fields = actionFields(surface, {
      name: 'submit',
      sourceComponentId: 'submit',
      context: { choice: ['coffee'] },
      dataModel: { choice: ['coffee'] },
    });
    const { followed, events } = await follow('act', fields);
    expect(followed.end?.outcome).toBe('completed');
    const [received, ...more] = rig.agents.record('v1', '/').slice(before);
    expect(more).toEqual([]);
    const parts = received!.message['parts'] as Array<Record<string, unknown>>;
    expect(parts).toHaveLength(1);
    const action = (parts[0]!['data'] as Array<Record<string, unknown>>)[0]!;
    expect(action).toEqual({
      version: 'v1.0',
      action: {
        name: 'submit',
        surfaceId: surface.surfaceId,
        sourceComponentId: 'submit',
        timestamp: fields.action.timestamp,
        context: { choice: ['coffee'] },
      },
    });
    // The form asked for it (createSurface's sendDataModel): the data model rides in the metadata.
    expect(received!.dataModel).toEqual({ version: 'v1.0', surfaces: { [surface.surfaceId]: { choice: ['coffee'] } } });
    expect(received!.message['messageId']).toBe(followed.messageId);
    // The answer: surface frames on the form's surface, "You chose coffee" among them.
    const answers = surfacesOf(events);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((frame) => frame.surfaceId === surface.surfaceId)).toBe(true);
    expect(JSON.stringify(answers)).toContain(choseText('coffee'));
    expect(followed.end?.surfaces?.map((s) => s.surfaceId)).toEqual([surface.surfaceId]);
  });

  it('an action on a surface the agent drew while it waits (form-status, input-required): with answerFields, it goes on that task', async () => {
    const { followed: asked } = await follow('waiting', { text: 'form-status' });
    expect(asked.end?.outcome).toBe('input-required');
    const surface = asked.end!.surfaces![0]!;
    const fields = actionFields(surface, { name: 'submit', sourceComponentId: 'submit', context: { choice: ['tea'] } });
    const { followed, events } = await follow('waiting', { ...fields, ...answerFields(asked.end!.interrupt!) });
    expect(followed.end).toMatchObject({ outcome: 'completed', taskId: asked.end!.taskId });
    expect(JSON.stringify(surfacesOf(events))).toContain(choseText('tea'));
    const [received, ...more] = actionsAt(surface.surfaceId);
    expect(more).toEqual([]);
    expect(received!.message['taskId']).toBe(asked.end!.taskId);
  });

  it('the data model goes only when the surface asked for it: a v0.8 form (beginRendering) gets a userAction and no data model', async () => {
    const surface = await drawn('v08', 'v08-form');
    expect(surface.messages[0]!.kind).toBe('beginRendering');
    const before = rig.agents.record('v1', '/').length;
    const fields = actionFields(surface, {
      name: 'submit',
      sourceComponentId: 'submit',
      context: { choice: 'water' },
      dataModel: { choice: 'water' },
    });
    const { followed, events } = await follow('v08', fields);
    expect(followed.end?.outcome).toBe('completed');
    const [received, ...more] = rig.agents.record('v1', '/').slice(before);
    expect(more).toEqual([]);
    expect(received!.dataModel).toBeUndefined();
    expect(JSON.stringify(received!.message['parts'])).toContain('"userAction"');
    expect(JSON.stringify(surfacesOf(events))).toContain(choseText('water'));
  });

  it('hostile bodies: 400 (413 past the body bound) in the gateway words, echoing nothing, and nothing reaches the agent', async () => {
    const surface = await drawn('hostile', 'form');
    const good = actionFields(surface, { name: 'submit', sourceComponentId: 'submit', context: { choice: ['tea'] } });
    const creation = good.surface;
    const other = {
      ...creation,
      surfaceId: 'form-other',
      message: { version: 'v1.0', createSurface: { surfaceId: 'form-other', catalogId: CATALOG_IDS['v1.0'] } },
    };
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 100; i++) at = (at['x'] = {}) as Record<string, unknown>;
    const library = surfaceAction({ surface: surface as unknown as SurfaceView, name: 'submit', sourceComponentId: 'submit' });
    const cases: Array<[string, unknown, number?]> = [
      ['a huge context', { ...good, action: { ...good.action, context: { choice: 'x'.repeat(MAX_CONTEXT_CHARS) } } }],
      ['a context past the body bound', { ...good, action: { ...good.action, context: { choice: 'x'.repeat(70_000) } } }, 413],
      ['a creation for another surfaceId', { ...good, surface: other }],
      ['a creation whose frame names another surface than its message', { ...good, surface: { ...creation, surfaceId: 'form-other' } }],
      ['a creation of an update', { ...good, surface: { ...creation, kind: 'updateComponents' } }],
      [
        'a creation that is not the kind it says',
        { ...good, surface: { kind: 'beginRendering', surfaceId: surface.surfaceId, message: creation.message } },
      ],
      ['a creation with a version it does not say', { ...good, surface: { ...creation, version: 'v0.9' } }],
      ['no creation', { action: good.action }],
      ['a creation without an action', { surface: creation }],
      ['javascript: in the context', { ...good, action: { ...good.action, context: { choice: 'javascript:alert(1)' } } }],
      [
        'JaVaScRiPt: after spaces, deep in the context',
        { ...good, action: { ...good.action, context: { a: [{ b: '  JaVaScRiPt:alert(1)' }] } } },
      ],
      ['javascript: as a key', { ...good, action: { ...good.action, context: { 'javascript:alert(1)': 1 } } }],
      [
        'data:text/html in the data model',
        { ...good, action: { ...good.action, dataModel: { x: 'data:text/html,<script>alert(1)</script>' } } },
      ],
      [
        'javascript: in the creation',
        {
          ...good,
          surface: {
            ...creation,
            message: { ...creation.message, createSurface: { surfaceId: surface.surfaceId, catalogId: 'javascript:alert(1)' } },
          },
        },
      ],
      ['javascript: as the action name', { ...good, action: { ...good.action, name: 'javascript:alert(1)' } }],
      ['a context nested 100 deep', { ...good, action: { ...good.action, context: deep } }],
      ['a text and an action together', { ...good, text: 'submit tea' }],
      ["surfaceAction's own fields", library],
      ["surfaceAction's own fields beside a text", { ...library, text: 'submit tea' }],
      ['a field the gateway does not read', { ...good, metadata: { a2uiClientDataModel: {} } }],
      ['a field of the action the gateway does not read', { ...good, action: { ...good.action, agent: 'http://elsewhere/' } }],
      ['an action that is a string', { action: 'submit', surface: creation }],
      ['an action that is a list', { action: [good.action], surface: creation }],
      ['a context that is a list', { ...good, action: { ...good.action, context: ['tea'] } }],
      ['a surfaceId with a newline', { ...good, action: { ...good.action, surfaceId: `${surface.surfaceId}\n` } }],
      ['an empty name', { ...good, action: { ...good.action, name: '' } }],
      ['a timestamp that is not one', { ...good, action: { ...good.action, timestamp: 'yesterday' } }],
      ['a surface that is null', { ...good, surface: null }],
      ['a creation without its message', { ...good, surface: { kind: 'createSurface', surfaceId: surface.surfaceId, version: 'v1.0' } }],
      ['garbage', '{"action": {"surfaceId": '],
      ['a JSON list', '[1, 2, 3]'],
    ];
    const before = rig.agents.record('v1', '/').length;
    const statuses: string[] = [];
    for (const [what, body, status = 400] of cases) {
      const response = await post('hostile', body);
      const text = await response.text();
      statuses.push(`${what}: ${response.status}`);
      expect(`${what}: ${response.status}`).toBe(`${what}: ${status}`);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const { error } = JSON.parse(text) as { error: string };
      expect(typeof error).toBe('string');
      expect(error.toLowerCase()).not.toContain('javascript');
      expect(error).not.toContain(surface.surfaceId);
      expect(error).not.toContain('xxxx');
    }
    expect(rig.agents.record('v1', '/').slice(before)).toEqual([]);
    // The good one goes after them all.
    const { followed } = await follow('hostile', good);
    expect(followed.end?.outcome).toBe('completed');
    expect(actionsAt(surface.surfaceId)).toHaveLength(1);
  });

  // kill -9 of the replica streaming the action's turn: the client asks again through another replica.
  const kills = [
    { when: 'at the first event of its turn', kill: 'event', holdMs: 0 },
    { when: 'at its first surface frame (the answer)', kill: 'surface', holdMs: 0 },
    { when: 'while the action is on its way to the agent (held 1.5 s)', kill: 'stream', holdMs: 1_500 },
  ] as const;
  it.each(kills)(
    'a replica killed $when: the action delivered once (the agent record), answered on its surface',
    async ({ kill, holdMs }) => {
      const thread = `kill-${kill}`;
      const surface = await drawn(thread, 'form');
      let serving = '';
      let killed: string | undefined;
      let killing: Promise<void> | undefined;
      const killNow = () => {
        if (killing !== undefined) return;
        killed = serving;
        killing = rig.cluster.kill(serving);
      };
      holdNextMs = holdMs;
      let followed;
      let events: GivenEvent[];
      try {
        ({ followed, events } = await follow(thread, {
          ...actionFields(surface, {
            name: 'submit',
            sourceComponentId: 'submit',
            context: { choice: ['water'] },
            dataModel: { choice: ['water'] },
          }),
          onStream: (replica) => {
            serving = replica;
            if (kill === 'stream') killNow();
          },
          onEvent: (event) => {
            if (kill === 'event' || (kill === 'surface' && event.type === 'surface')) killNow();
          },
        }));
      } finally {
        holdNextMs = 0;
        await killing;
        if (killed !== undefined) await rig.cluster.restart(killed);
      }
      expect(killed).toBeDefined();
      expect(followed.replicas.length).toBeGreaterThanOrEqual(2);
      expect(followed.replicas.at(-1)).not.toBe(killed);
      expect(followed.end?.outcome).toBe('completed');
      const received = actionsAt(surface.surfaceId);
      expect(received).toHaveLength(1);
      expect(received[0]!.message['messageId']).toBe(followed.messageId);
      expect(JSON.stringify(surfacesOf(events))).toContain(choseText('water'));
      console.log(
        `action, replica killed ${kill}: replicas ${followed.replicas.join(' → ')}, resent ${followed.resent}, ` +
          `actions at the agent ${received.length}, A2UI given again and dropped ${followed.replayed}`,
      );
    },
  );
});

describe('the catalogs a replica says (--a2ui-catalogs, A4H_GATEWAY_A2UI_CATALOGS)', { timeout: 30_000 }, () => {
  it('reads the flag, then the environment; none says nothing; anything else odd stops the replica', () => {
    expect(a2uiCatalogsOf(undefined, {})).toEqual([...DEFAULT_A2UI_CATALOGS]);
    expect(a2uiCatalogsOf('', {})).toEqual([...DEFAULT_A2UI_CATALOGS]);
    expect(a2uiCatalogsOf(undefined, { [A2UI_CATALOGS_ENV]: 'urn:a, urn:b' })).toEqual(['urn:a', 'urn:b']);
    expect(a2uiCatalogsOf('urn:c', { [A2UI_CATALOGS_ENV]: 'urn:a' })).toEqual(['urn:c']);
    expect(a2uiCatalogsOf('none', {})).toEqual([]);
    for (const bad of ['urn:a,,urn:b', 'urn:a\nurn:b', 'a b', 'x'.repeat(2049), Array.from({ length: 17 }, (_, i) => `urn:${i}`).join(',')])
      expect(() => a2uiCatalogsOf(bad, {}), bad.slice(0, 20)).toThrow(/--a2ui-catalogs/);
  });

  it.each([
    { catalogs: [] as string[], said: undefined },
    { catalogs: ['urn:example:catalog'], said: { 'v1.0': { supportedCatalogIds: ['urn:example:catalog'] } } },
  ])('a replica given $catalogs says $said to the agent', async ({ catalogs, said }) => {
    const gateway = await startGateway({ agent: rig.agents.v1.url('/'), verify: async () => USER, a2uiCatalogs: catalogs });
    try {
      const before = rig.agents.record('v1', '/').length;
      const response = await fetch(new URL('threads/said/messages', gateway.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'echo hi' }),
      });
      expect(await response.text()).toContain('event: end');
      const [received, ...more] = rig.agents.record('v1', '/').slice(before);
      expect(more).toEqual([]);
      expect(received!.capabilities).toEqual(said);
      if (said === undefined) expect(received!.extensions).toEqual([]);
      else expect(received!.extensions).toContain(A2UI_EXTENSION.v1);
    } finally {
      await gateway.close();
    }
  });

  it("the client's actionFields: the surface's creation, the timestamp fixed; no creation, or a text beside, is refused before anything is sent", async () => {
    const view = { surfaceId: 's', messages: [{ kind: 'updateComponents', surfaceId: 's', version: 'v1.0', message: {} }] };
    expect(() => actionFields(view, { name: 'n', sourceComponentId: 'c' })).toThrow(/never created/);
    const creation = {
      kind: 'createSurface',
      surfaceId: 's',
      version: 'v1.0',
      message: { version: 'v1.0', createSurface: { surfaceId: 's' } },
    };
    const fields = actionFields({ surfaceId: 's', messages: [view.messages[0]!, creation] }, { name: 'n', sourceComponentId: 'c' });
    expect(fields.surface).toEqual(creation);
    expect(fields.action).toEqual({
      surfaceId: 's',
      name: 'n',
      sourceComponentId: 'c',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    let fetched = 0;
    const counting = (async () => {
      fetched += 1;
      return new Response('', { status: 500 });
    }) as typeof fetch;
    await expect(followTurn({ gateway: 'http://127.0.0.1:9/', thread: 't', text: 'x', ...fields, fetch: counting })).rejects.toThrow(
      /not both/,
    );
    expect(fetched).toBe(0);
  });
});
