/**
 * Bad cards, per protocol version: the fixture's card as relayed by the proxy (its URLs already
 * pointing at the proxy), edited on the way — missing and mistyped fields, absurd sizes, interface
 * URLs that point elsewhere, bindings the client does not speak. Each turn ends with one clear
 * error naming the problem (or, where the card is merely unusual, completes), and never hangs.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../fixtures/fault-proxy.js';
import { REPLY } from '../../fixtures/index.js';
import { expectError, expectReply, useRig, VERSIONS, type Version } from './kit.js';

type Card = Record<string, unknown>;
type Edit = (card: Card) => Card;

/** A URL on 127.0.0.1 where nothing listens (a port just released). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/a2a/jsonrpc`;
}

/** The proxy fault that relays the card after `edit`. */
const editCard = (edit: Edit): Fault => ({ type: 'edit-json', edit: (json) => edit(json as Card) });

const interfaces = (card: Card): Card[] => card['supportedInterfaces'] as Card[];
const skill = (i: number): Card => ({ id: `s${i}`, name: `skill ${i}`, tags: [] });

/** Card edits that must fail the turn with a `card` error whose message matches. */
const CARD_ERRORS: Record<'1.0' | '0.3', ReadonlyArray<[string, Edit, RegExp]>> = {
  '1.0': [
    ['no name', ({ name: _, ...card }) => card, /field name/],
    ['name is a number', (card) => ({ ...card, name: 42 }), /field name/],
    ['capabilities.streaming is a string', (card) => ({ ...card, capabilities: { streaming: 'yes' } }), /field capabilities\.streaming/],
    ['supportedInterfaces is empty', (card) => ({ ...card, supportedInterfaces: [] }), /field supportedInterfaces/],
    ['supportedInterfaces is a string', (card) => ({ ...card, supportedInterfaces: 'http://x/' }), /field supportedInterfaces/],
    [
      'an interface URL that is not a URL',
      (card) => ({ ...card, supportedInterfaces: [{ ...interfaces(card)[0], url: 'not a url' }] }),
      /supportedInterfaces\.0\.url/,
    ],
    [
      'an interface with no protocolBinding',
      (card) => ({ ...card, supportedInterfaces: [{ url: interfaces(card)[0]?.['url'] }] }),
      /supportedInterfaces\.0\.protocolBinding/,
    ],
    ['a 5,000-character name', (card) => ({ ...card, name: 'n'.repeat(5_000) }), /field name/],
    ['5,000 skills', (card) => ({ ...card, skills: Array.from({ length: 5_000 }, (_, i) => skill(i)) }), /field skills/],
    ['a 2 MiB card', (card) => ({ ...card, padding: 'p'.repeat(2 * 1024 * 1024) }), /larger than 1048576 bytes/],
    [
      'only a GRPC interface',
      (card) => ({ ...card, supportedInterfaces: [{ ...interfaces(card)[0], protocolBinding: 'GRPC' }] }),
      /offers: GRPC/,
    ],
    [
      'only an unknown binding',
      (card) => ({ ...card, supportedInterfaces: [{ ...interfaces(card)[0], protocolBinding: 'CARRIER-PIGEON' }] }),
      /offers: CARRIER-PIGEON/,
    ],
  ],
  '0.3': [
    ['no name', ({ name: _, ...card }) => card, /field name/],
    ['no url', ({ url: _, ...card }) => card, /field url/],
    ['a url that is not http', (card) => ({ ...card, url: 'ftp://127.0.0.1/a2a' }), /field url/],
    ['capabilities is a string', (card) => ({ ...card, capabilities: 'streaming' }), /field capabilities/],
    ['a skill without an id', (card) => ({ ...card, skills: [{ name: 'x' }] }), /field skills\.0\.id/],
    ['a 50,000-character description', (card) => ({ ...card, description: 'd'.repeat(50_000) }), /field description/],
    ['5,000 skills', (card) => ({ ...card, skills: Array.from({ length: 5_000 }, (_, i) => skill(i)) }), /field skills/],
    ['a 2 MiB card', (card) => ({ ...card, padding: 'p'.repeat(2 * 1024 * 1024) }), /larger than 1048576 bytes/],
    ['preferredTransport GRPC only', (card) => ({ ...card, preferredTransport: 'GRPC' }), /offers: GRPC/],
    ['only an unknown transport', (card) => ({ ...card, preferredTransport: 'SMOKE-SIGNALS' }), /offers: SMOKE-SIGNALS/],
  ],
};

/** Edits that point the interface elsewhere: the card is fine, the calls fail. */
function pointElsewhere(version: Version, url: string): Edit {
  return version.name.startsWith('v1')
    ? (card) => ({ ...card, supportedInterfaces: [{ ...interfaces(card)[0], url }] })
    : (card) => ({ ...card, url });
}

for (const version of VERSIONS) {
  const shape = version.name.startsWith('v1') ? '1.0' : '0.3';
  describe(`${version.name}: bad cards`, () => {
    const rig = useRig(version);

    for (const [name, edit, says] of CARD_ERRORS[shape]) {
      it(`${name} → card error naming it, no protocol call`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'card', fault: editCard(edit) });
        const error = expectError(await r.turn('artifacts'), 'card', { operation: 'card' });
        expect(error.message).toMatch(says);
        expect(r.proxy.seen.map((s) => s.kind)).toEqual(['card']);
      });
    }

    it('a card that is a JSON array → card error', async () => {
      const r = rig();
      r.proxy.plan({ on: 'card', fault: { type: 'edit-json', edit: (json) => [json] } });
      expect(expectError(await r.turn('artifacts'), 'card').message).toMatch(/not a JSON object/);
    });

    it('the interface URL points at a port where nothing listens → network error, no hang, nothing re-sent', async () => {
      const r = rig();
      const url = await deadUrl();
      r.proxy.plan({ on: 'card', fault: editCard(pointElsewhere(version, url)) });
      const result = await r.turn('artifacts');
      const error = expectError(result, 'network', { operation: 'stream' });
      expect(error.message).toMatch(/the connection failed \(connection refused: nothing listens on that port, ECONNREFUSED\)/);
      expect(r.reached('stream') + r.reached('send')).toBe(0);
    });

    it('the interface URL points at a path that does not exist (404) → fallback, then unsupported error', async () => {
      const r = rig();
      const url = r.proxy.url('/nowhere/');
      r.proxy.plan({ on: 'card', fault: editCard(pointElsewhere(version, url)) });
      const result = await r.turn('artifacts');
      expectError(result, 'unsupported', { operation: 'send', status: 404 });
      expect(result.events.map((e) => e.type)).toEqual(['start', 'fallback']);
      expect(r.proxy.seen.map((s) => s.kind)).toEqual(['card', 'stream', 'send']);
    });

    if (shape === '0.3') {
      it('a v0.3 card without protocolVersion → read as v0.3, the turn completes', async () => {
        const r = rig();
        r.proxy.plan({ on: 'card', fault: editCard(({ protocolVersion: _, ...card }) => card) });
        expectReply(await r.turn('artifacts'), REPLY.artifacts);
      });
    } else {
      it('a v1.0 card whose capabilities say nothing of streaming → blocking send, the turn completes', async () => {
        const r = rig();
        r.proxy.plan({ on: 'card', fault: editCard(({ capabilities: _, ...card }) => card) });
        expectReply(await r.turn('artifacts'), REPLY.artifacts);
        expect([r.reached('stream'), r.reached('send')]).toEqual([0, 1]);
      });
    }
  });
}
