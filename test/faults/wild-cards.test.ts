/**
 * Cards as agents in the wild publish them (issue 48): @mastra/server 2.0.4's card (a relative `url`,
 * no `protocolVersion`) in front of the first A2A draft, and a card served only at the path of A2A
 * v0.2 and earlier (`/.well-known/agent.json`). On both readers.
 */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startMastraAgent, type MastraAgent } from '../../fixtures/agent-mastra.js';
import { startOldCardAgent } from '../../fixtures/agent-old-card.js';
import { echoReply } from '../../fixtures/texts.js';
import type { FixtureAgent } from '../../fixtures/types.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { runTurn } from '../../src/turn/turn.js';
import { eventsOf, expectReply, POLICY, run, useAgentPortsRig } from './kit.js';

for (const reader of ['a4h', 'sdk'] as const) {
  const which = reader === 'sdk' ? "the SDK's reader" : 'our reader';
  const rigOf = <A extends FixtureAgent>(start: () => Promise<A>) => useAgentPortsRig(start, reader);

  describe(`@mastra/server 2.0.4 (the first A2A draft, ${which})`, () => {
    const rig = rigOf<MastraAgent>(startMastraAgent);

    it("its relative card url is called on the card's origin; its refusal of message/stream is said as what it is: no blocking send after it", async () => {
      const { agent, ports } = rig();
      const port = ports(agent.cardUrl);
      const result = await run(runTurn(port, { text: 'hello' }, POLICY));
      expect(result.error).toMatchObject({
        kind: 'unsupported',
        retryable: false,
        code: -32009,
        status: 400,
        agent: `${agent.baseUrl}/a2a/zoo-mastra2`,
      });
      expect(result.error?.message).toContain('this agent speaks the pre-0.2 A2A draft, which a4h-a2a does not speak');
      expect(eventsOf(result, 'fallback')).toEqual([]);
      expect(agent.received.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /.well-known/zoo-mastra2/agent.json /.well-known/zoo-mastra2/agent.json 200',
        'message/stream /a2a/zoo-mastra2 400',
      ]);
    });
  });

  describe(`@mastra/server 2.0.4 with a card that says it does not stream (the first A2A draft, ${which})`, () => {
    const rig = rigOf<MastraAgent>(() => startMastraAgent({ streaming: false }));

    it('its refusal of the blocking message/send is said as what it is', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.cardUrl), { text: 'hello' }, POLICY));
      expect(result.error).toMatchObject({
        kind: 'unsupported',
        retryable: false,
        code: -32009,
        status: 400,
        agent: `${agent.baseUrl}/a2a/zoo-mastra2`,
      });
      expect(result.error?.message).toBe(
        'this agent speaks the pre-0.2 A2A draft, which a4h-a2a does not speak (it refused message/send with HTTP 400)',
      );
      expect(agent.received.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /.well-known/zoo-mastra2/agent.json /.well-known/zoo-mastra2/agent.json 200',
        'message/send /a2a/zoo-mastra2 400',
      ]);
    });
  });

  describe(`a card only at /.well-known/agent.json (@a2a-js/sdk 0.2.5, ${which})`, () => {
    const rig = rigOf(startOldCardAgent);

    it('a base URL: the 404 at agent-card.json tries agent.json once, and the turn runs', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.url('/')), { text: 'hello' }, POLICY));
      expectReply(result, echoReply('hello'));
      const cards = agent.received.filter((r) => r.method.startsWith('GET'));
      expect(cards.map((r) => `${r.path} ${r.status}`)).toEqual(['/.well-known/agent-card.json 404', '/.well-known/agent.json 200']);
    });

    it('a card held from agent.json is revalidated there, with its validator: the second read is a 304 at agent.json, nothing else', async () => {
      const { agent, http } = rig();
      let now = 0;
      const clock = () => now;
      const port = createSdkPorts({ fetch: http.fetch, reader, clock })(agent.url('/'));
      const first = await lastValueFrom(port.card());
      now += 300_000; // the default time a card without max-age is kept: expired, so read again
      const second = await lastValueFrom(port.card());
      expect(second).toEqual(first);
      const cards = agent.received.filter((r) => r.method.startsWith('GET'));
      expect(cards.map((r) => `${r.path} ${r.status}`)).toEqual([
        '/.well-known/agent-card.json 404',
        '/.well-known/agent.json 200',
        '/.well-known/agent.json 304',
      ]);
      expect(cards[2]!.headers['if-none-match']).toMatch(/^W\/".+"$/); // express's ETag of the card it sent
    });

    it("the base URL's query (an API key) goes to the old path too", async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(`${agent.baseUrl}/?key=K`), { text: 'hello' }, POLICY));
      expectReply(result, echoReply('hello'));
      const cards = agent.received.filter((r) => r.method.startsWith('GET'));
      expect(cards.map((r) => `${r.path} ${r.status}`)).toEqual([
        '/.well-known/agent-card.json?key=K 404',
        '/.well-known/agent.json?key=K 200',
      ]);
    });

    it('a card URL the caller chose is fetched as it is: its 404 is the error, nothing else is tried', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(`${agent.baseUrl}/.well-known/agent-card.json`), { text: 'hello' }, POLICY));
      expect(result.error).toMatchObject({ kind: 'card', status: 404 });
      expect(agent.received.map((r) => `${r.path} ${r.status}`)).toEqual(['/.well-known/agent-card.json 404']);
    });

    it('a base URL with neither path: one error naming both', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.url('/nobody/')), { text: 'hello' }, POLICY));
      expect(result.error).toMatchObject({ kind: 'card', status: 404 });
      expect(result.error?.message).toContain(
        `no agent card at ${agent.baseUrl}/nobody/.well-known/agent-card.json (HTTP 404), nor at ${agent.baseUrl}/nobody/.well-known/agent.json (the path of A2A v0.2 and earlier; HTTP 404)`,
      );
      expect(agent.received.map((r) => `${r.path} ${r.status}`)).toEqual([
        '/nobody/.well-known/agent-card.json 404',
        '/nobody/.well-known/agent.json 404',
      ]);
    });
  });
}
