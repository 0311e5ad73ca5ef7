import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2UI_V03_MOUNTS, A2UI_V1_MOUNTS, startA2UIAgent, type A2UIAgents } from '../../fixtures/agent-a2ui.js';
import { CATALOG_IDS, choseText } from '../../fixtures/a2ui-protocol.js';
import { surfaceAction } from '../../src/client/surface-action.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { EndEvent, TurnEvent } from '../../src/port/events.js';

// A2UI through the whole client against real SDK agents that draw: every shape read, the option said only to
// an agent that offers A2UI, an action sent back and answered on its surface, hostile surfaces refused.

const SECRET = 'a2ui-turns-test-secret-0123456789abcdef';
const A2UI = { catalogs: [CATALOG_IDS['v1.0']] };
let agents: A2UIAgents;
beforeAll(async () => {
  agents = await startA2UIAgent();
});
afterAll(async () => agents?.close());

const turn = async (a2a: ReturnType<typeof createA2A>, agent: string, thread: string, input: { text: string } & Record<string, unknown>) =>
  lastValueFrom(a2a.turn({ agent, handle: 'h', thread, ...input }).pipe(toArray()));
const endOf = (events: TurnEvent[]) => events.at(-1) as EndEvent;
const of = <T extends TurnEvent['type']>(events: TurnEvent[], type: T) =>
  events.filter((e): e is Extract<TurnEvent, { type: T }> => e.type === type);
const kinds = (events: TurnEvent[]) => of(events, 'surface').flatMap((e) => e.messages.map((m) => m.kind));

describe('A2UI surfaces against agents that draw', () => {
  for (const [host, label] of [
    ['v1', 'v1.0'],
    ['v03', 'v0.3'],
  ] as const) {
    it(`${label}: every shape the wild sends gives the same surface events, and no attachment`, async () => {
      const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
      const url = agents[host].url('/');
      const shapes: Record<string, string[]> = {
        form: ['createSurface', 'updateComponents', 'updateDataModel'],
        'form-status': ['createSurface', 'updateComponents', 'updateDataModel'],
        'form-chunks': ['createSurface', 'updateComponents', 'updateDataModel'],
        'sdk-form': ['createSurface', 'updateComponents', 'updateDataModel'],
        'sdk-form-media': ['createSurface', 'updateComponents', 'updateDataModel'],
        'v08-form': ['beginRendering', 'surfaceUpdate', 'dataModelUpdate'],
      };
      for (const [word, expected] of Object.entries(shapes)) {
        const events = await turn(a2a, url, `${host}-${word}`, { text: word });
        expect([word, kinds(events)]).toEqual([word, expected]);
        expect(of(events, 'attachment')).toEqual([]);
        const end = endOf(events);
        expect(end.surfaces?.[0]?.messages.map((m) => m.kind)).toEqual(expected);
        expect(end).not.toHaveProperty('replyMissing');
      }
      await a2a.close();
    });
  }

  it('the option is said only to an agent whose card offers A2UI: its extension activated, the catalogs in the metadata', async () => {
    const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
    await turn(a2a, agents.v1.url(A2UI_V1_MOUNTS.main), 'offered', { text: 'form' });
    await turn(a2a, agents.v1.url(A2UI_V1_MOUNTS.plain), 'plain', { text: 'form' });
    await turn(a2a, agents.v03.url(A2UI_V03_MOUNTS.main), 'offered-03', { text: 'form' });
    await a2a.close();
    const [offered] = agents.record('v1', A2UI_V1_MOUNTS.main).slice(-1);
    expect(offered).toMatchObject({
      extensions: ['https://a2ui.org/a2a-extension/a2ui/v1.0'],
      capabilities: { 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } },
    });
    const [plain] = agents.record('v1', A2UI_V1_MOUNTS.plain).slice(-1);
    expect(plain!.extensions).toEqual([]);
    expect(plain!.capabilities).toBeUndefined();
    const [old] = agents.record('v03', A2UI_V03_MOUNTS.main).slice(-1);
    expect(old!.extensions).toContain('https://a2ui.org/a2a-extension/a2ui/v1.0');
    expect(old!.capabilities).toEqual({ 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } });
  });

  it('an action sent back on the thread, with the data model the surface asked for: the agent answers on that surface', async () => {
    const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
    const url = agents.v1.url(A2UI_V1_MOUNTS.main);
    const drawn = endOf(await turn(a2a, url, 'act', { text: 'form' }));
    const surface = drawn.surfaces![0]!;
    const action = surfaceAction({
      surface,
      name: 'submit',
      sourceComponentId: 'submit',
      context: { choice: ['coffee'] },
      dataModel: { choice: ['coffee'] },
    });
    const answered = await turn(a2a, url, 'act', action);
    await a2a.close();
    const [received] = agents.record('v1', A2UI_V1_MOUNTS.main).slice(-1);
    expect(received!.dataModel).toEqual({ version: 'v1.0', surfaces: { [surface.surfaceId]: { choice: ['coffee'] } } });
    expect(of(answered, 'surface').every((e) => e.surfaceId === surface.surfaceId)).toBe(true);
    expect(JSON.stringify(of(answered, 'surface'))).toContain(choseText('coffee'));
    expect(endOf(answered)).toMatchObject({ outcome: 'completed' });
  });

  it("the thread's history shows a past turn's surface as it stands (a reload draws it again), checked as a live turn's", async () => {
    const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
    const url = agents.v1.url(A2UI_V1_MOUNTS.main);
    const drawn = endOf(await turn(a2a, url, 'history', { text: 'form' }));
    await turn(a2a, url, 'history', { text: 'evil-url' });
    const page = await lastValueFrom(a2a.history({ agent: url, handle: 'h', thread: 'history' }));
    await a2a.close();
    const [form, evil] = page.exchanges;
    expect(form!.surfaces).toEqual(drawn.surfaces);
    expect(form!.surfaces![0]!.agent).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*agent-card\.json$/);
    expect(JSON.stringify(evil)).not.toMatch(/javascript:|alert\(/);
  });

  it('an action aimed at another agent’s surface is refused by the client before anything is sent; without its origin, by that agent', async () => {
    const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
    const main = agents.v1.url(A2UI_V1_MOUNTS.main);
    const drawn = endOf(await turn(a2a, main, 'mine', { text: 'form' }));
    const surface = drawn.surfaces![0]!;
    // The surface names its agent (no query: a hosted agent's key rides there), the same on the live event.
    expect(surface.agent).toBe(new URL('.well-known/agent-card.json', main.endsWith('/') ? main : `${main}/`).href);
    const action = surfaceAction({
      surface,
      name: 'submit',
      sourceComponentId: 'submit',
      context: { choice: ['tea'] },
      dataModel: { choice: ['tea'] },
    });
    expect(action.actsOn).toEqual({ surfaceId: surface.surfaceId, agent: surface.agent });
    const other = agents.v1.url(A2UI_V1_MOUNTS.other);
    const before = agents.record('v1', A2UI_V1_MOUNTS.other).length;
    const refused = await lastValueFrom(a2a.turn({ agent: other, handle: 'h', thread: 'theirs', ...action }).pipe(toArray())).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ kind: 'input', message: expect.stringMatching(/another agent drew.*nothing was sent/) });
    expect(agents.record('v1', A2UI_V1_MOUNTS.other).length).toBe(before);
    // The same agent by another spelling of its URL (a trailing slash, a key in the query) takes it.
    const same = await turn(a2a, `${main.replace(/\/$/, '')}/?key=k`, 'mine', action);
    expect(endOf(same)).toMatchObject({ outcome: 'completed' });
    // A caller who drops the origin vouches for the action: the other agent itself refuses it (the task fails).
    const { actsOn: _origin, ...bare } = action;
    const elsewhere = await turn(a2a, other, 'theirs', bare);
    await a2a.close();
    expect(endOf(elsewhere)).toMatchObject({ outcome: 'failed' });
    expect(of(elsewhere, 'surface')).toEqual([]);
  });

  it('hostile surfaces: refused with a reason while the turn ends (a javascript: URL, nesting), or past the reader’s bound a clear error (a huge tree, 20 MB)', async () => {
    const a2a = createA2A({ identitySecret: SECRET, a2ui: A2UI });
    const url = agents.v1.url(A2UI_V1_MOUNTS.main);
    // Each refused with a reason while the turn ends, or (an event past the stream reader's 4 MiB) the turn fails with a
    // clear error: nothing of it drawn either way.
    const outcomes: Record<string, string> = {};
    for (const word of ['evil-url', 'evil-tree', 'evil-deep', 'evil-huge']) {
      const events = await turn(a2a, url, word, { text: word }).catch((error: unknown) => error as Error);
      if (events instanceof Error) {
        outcomes[word] =
          `error: ${(events as { kind?: string }).kind} (${events.message.includes('larger than') ? 'too large' : events.message})`;
        continue;
      }
      outcomes[word] = `${endOf(events).outcome}: ${[...new Set(of(events, 'surface-refused').map((e) => e.reason))].join(',')}`;
      expect(JSON.stringify(events)).not.toMatch(/javascript:|alert\(/);
    }
    await a2a.close();
    expect(outcomes).toEqual({
      'evil-url': 'completed: unsafe-url',
      'evil-tree': 'error: protocol (too large)',
      'evil-deep': 'completed: too-deep',
      'evil-huge': 'error: protocol (too large)',
    });
  });
});
