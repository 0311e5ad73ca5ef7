import { describe, expect, it } from 'vitest';
import { checkInput } from '../../src/client/input.js';
import { surfaceAction } from '../../src/client/surface-action.js';
import type { SurfaceView } from '../../src/port/a2ui.js';
import { a2uiOffer, checkA2UIOption } from '../../src/port/a2ui-option.js';
import type { CardSummary } from '../../src/port/card.js';

// A2UI, the client's side: what a turn says it renders (only to an agent that offers A2UI), and an action sent back.

const created = (version: string | undefined, sendDataModel: boolean): SurfaceView => ({
  surfaceId: 'form',
  messages: [
    version === undefined
      ? { kind: 'beginRendering', surfaceId: 'form', message: { beginRendering: { surfaceId: 'form', root: 'root' } } }
      : {
          kind: 'createSurface',
          surfaceId: 'form',
          version,
          message: { version, createSurface: { surfaceId: 'form', catalogId: 'c', sendDataModel } },
        },
  ],
});
const at = '2026-12-05T07:00:00.000Z';

describe('surfaceAction', () => {
  it("a v1.0 surface's action: one A2UI part holding the action, the data model when the surface asked for it", () => {
    expect(
      surfaceAction({
        surface: created('v1.0', true),
        name: 'submit',
        sourceComponentId: 'go',
        context: { choice: 'b' },
        dataModel: { choice: 'b' },
        timestamp: at,
      }),
    ).toEqual({
      text: '',
      data: [
        {
          data: [
            {
              version: 'v1.0',
              action: { name: 'submit', surfaceId: 'form', sourceComponentId: 'go', timestamp: at, context: { choice: 'b' } },
            },
          ],
          mediaType: 'application/a2ui+json',
          metadata: { mimeType: 'application/a2ui+json' },
        },
      ],
      metadata: { a2uiClientDataModel: { version: 'v1.0', surfaces: { form: { choice: 'b' } } } },
    });
    expect(
      surfaceAction({ surface: created('v1.0', false), name: 'submit', sourceComponentId: 'go', dataModel: { x: 1 }, timestamp: at }),
    ).not.toHaveProperty('metadata');
  });

  it('a surface that names its agent gives the action its origin (a turn to another agent refuses it); one made by hand, none', () => {
    const agent = 'http://127.0.0.1:1/a/.well-known/agent-card.json';
    const action = surfaceAction({ surface: { ...created('v1.0', false), agent }, name: 'submit', sourceComponentId: 'go', timestamp: at });
    expect(action.actsOn).toEqual({ surfaceId: 'form', agent });
    expect(surfaceAction({ surface: created('v1.0', false), name: 'submit', sourceComponentId: 'go', timestamp: at })).not.toHaveProperty(
      'actsOn',
    );
    const turn = { agent: 'http://127.0.0.1:1/a?key=k', handle: 'h', thread: 't', ...action };
    expect(checkInput(turn)).toBe('http://127.0.0.1:1/a/.well-known/agent-card.json?key=k');
    expect(() => checkInput({ ...turn, agent: 'http://127.0.0.1:1/b' })).toThrow(
      expect.objectContaining({ kind: 'input', message: expect.stringMatching(/"form", which another agent drew/) }),
    );
    expect(() => checkInput({ ...turn, actsOn: { surfaceId: 'form' } as never })).toThrow(/actsOn names the surface/);
  });

  it("a v0.8 surface's action is a userAction; a surface never created, or an action without a name, is refused", () => {
    const answer = surfaceAction({ surface: created(undefined, false), name: 'ok', sourceComponentId: 'b', timestamp: at });
    expect(answer.data![0]!.data).toEqual([
      { userAction: { name: 'ok', surfaceId: 'form', sourceComponentId: 'b', timestamp: at, context: {} } },
    ]);
    expect(() => surfaceAction({ surface: { surfaceId: 'x', messages: [] }, name: 'ok', sourceComponentId: 'b' })).toThrow(
      expect.objectContaining({ kind: 'input' }),
    );
    expect(() => surfaceAction({ surface: created('v1.0', false), name: '', sourceComponentId: 'b' })).toThrow(
      expect.objectContaining({ kind: 'input' }),
    );
  });
});

describe('the a2ui option', () => {
  const card = (extensions: CardSummary['extensions']): CardSummary => ({ extensions }) as CardSummary;
  const option = { catalogs: ['https://a2ui.org/basic'], inlineCatalogs: [{ catalogId: 'inline' }] };

  it("takes up the newest version the card offers, keyed as that version's schema says; inline catalogs only where accepted", () => {
    expect(
      a2uiOffer(
        card([
          { uri: 'https://a2ui.org/a2a-extension/a2ui/v0.8', required: false },
          { uri: 'https://a2ui.org/a2a-extension/a2ui/v1.0', required: false, params: { acceptsInlineCatalogs: true } },
        ]),
        option,
      ),
    ).toEqual({
      uri: 'https://a2ui.org/a2a-extension/a2ui/v1.0',
      metadata: {
        a2uiClientCapabilities: { 'v1.0': { supportedCatalogIds: ['https://a2ui.org/basic'], inlineCatalogs: [{ catalogId: 'inline' }] } },
      },
    });
    expect(a2uiOffer(card([{ uri: 'https://a2ui.org/a2a-extension/a2ui/v0.8', required: false }]), option)).toEqual({
      uri: 'https://a2ui.org/a2a-extension/a2ui/v0.8',
      metadata: { a2uiClientCapabilities: { supportedCatalogIds: ['https://a2ui.org/basic'] } },
    });
    expect(a2uiOffer(card(undefined), option)).toBeUndefined();
    expect(a2uiOffer(card([{ uri: 'https://extensions.example/other', required: false }]), option)).toBeUndefined();
  });

  it('is checked: catalogs, at least one', () => {
    for (const bad of [{}, { catalogs: [] }, { catalogs: [''] }, { catalogs: ['a'], inlineCatalogs: ['x'] }, null]) {
      expect(() => checkA2UIOption(bad)).toThrow(expect.objectContaining({ kind: 'config' }));
    }
    expect(checkA2UIOption(undefined)).toBeUndefined();
  });
});
