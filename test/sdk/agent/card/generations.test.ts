import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { bookedReply, INPUT_QUESTION, REPLY, startV03Agent, V03_MOUNTS, type FixtureAgent } from '../../../../fixtures/index.js';
import { type NodeFetch } from '../../../../src/node/fetch.js';
import { createSdkPorts } from '../../../../src/sdk/ports.js';
import { runTurn } from '../../../../src/turn/turn.js';
import { collect, endOf, FAST, folded } from '../../harness.js';
import { useAgentRig } from '../../../agent-rig.js';

const CARD = '/.well-known/agent-card.json';

// Cards of older generations: the client must speak the wire the agent speaks, not the card's label.
describe('cards of other protocol generations', () => {
  let agent: FixtureAgent;
  let http: NodeFetch;
  useAgentRig(startV03Agent, (a, h) => ([agent, http] = [a, h]));

  for (const [mount, version] of [
    [V03_MOUNTS.v02, '0.2.5'],
    [V03_MOUNTS.unversioned, '0.3'],
  ] as const) {
    it(`a card saying protocolVersion ${mount === V03_MOUNTS.v02 ? '"0.2.5"' : '(absent)'} speaks the v0.3 wire: the whole reply`, async () => {
      const ports = createSdkPorts({ fetch: http.fetch });
      const card = await lastValueFrom(ports(agent.url(mount)).card());
      expect(card).toMatchObject({ protocolVersion: version, transport: 'JSONRPC' });
      const events = await collect(runTurn(ports(agent.url(mount)), { text: 'artifacts' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
      expect(folded(events)).toBe(REPLY.artifacts);
      expect(agent.received.filter((r) => r.mount === mount).map((r) => r.method)).toContain('message/stream');
    });
  }

  it('a card that names the wrong generation: -32601 on the first call, once more in the other one, remembered for the agent', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const url = agent.url(V03_MOUNTS.mislabeled);
    const methods = () =>
      agent.received.filter((r) => r.mount === V03_MOUNTS.mislabeled && r.method !== `GET ${CARD}`).map((r) => r.method);
    const first = await collect(runTurn(ports(url), { text: 'artifacts' }, FAST));
    expect(endOf(first)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    expect(folded(first)).toBe(REPLY.artifacts);
    expect(first.filter((e) => e.type === 'fallback')).toEqual([]);
    expect(methods()).toEqual(['SendStreamingMessage', 'message/stream']);
    const second = await collect(runTurn(ports(url), { text: 'artifacts' }, FAST));
    expect(endOf(second)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
    expect(methods()).toEqual(['SendStreamingMessage', 'message/stream', 'message/stream']);
  });

  it('with interfaceOrder minVersion 1.0 the wrong generation is not followed: a VersionNotSupportedError, never a silent downgrade', async () => {
    const ports = createSdkPorts({ fetch: http.fetch, interfaceOrder: { minVersion: '1.0' } });
    const url = agent.url(V03_MOUNTS.mislabeled);
    const from = agent.received.length;
    await expect(collect(runTurn(ports(url), { text: 'artifacts' }, FAST))).rejects.toMatchObject({ kind: 'unsupported', code: -32009 });
    expect(agent.received.slice(from).map((r) => r.method)).not.toContain('message/stream');
  });

  for (const [text, reply] of [
    ['artifacts', REPLY.artifacts],
    ['drop', REPLY.drop],
  ] as const) {
    it(`a v0.3 agent on HTTP+JSON only, ${text}: the append the SDK's client drops (S6) is repaired; chunks render once`, async () => {
      const ports = createSdkPorts({ fetch: http.fetch });
      const events = await collect(runTurn(ports(agent.url(V03_MOUNTS.rest)), { text }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: reply });
      expect(folded(events)).toBe(reply);
      // Appended on the wire, appended on screen: never a replace of what was shown.
      expect(events.filter((e) => e.type === 'text' && e.replace)).toEqual([]);
    });
  }

  it('a v0.3 agent on HTTP+JSON only: the follow-up to its question opens with the task still input-required and reads on to the answer', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const url = agent.url(V03_MOUNTS.rest);
    const restCalls = () => agent.received.filter((r) => r.mount === V03_MOUNTS.rest).map((r) => r.method);
    const before = restCalls().length;
    const first = endOf(await collect(runTurn(ports(url), { text: 'input', contextId: 'ctx-rest-input' }, FAST)));
    expect(first).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION });
    const events = await collect(runTurn(ports(url), { text: 'Paris', contextId: 'ctx-rest-input', taskId: first.taskId! }, FAST));
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: bookedReply('Paris'), taskId: first.taskId });
    expect(folded(events)).toBe(bookedReply('Paris'));
    // Two streams, one per message, and nothing else: no resubscribe, no poll, no CancelTask.
    expect(
      restCalls()
        .slice(before)
        .filter((m) => !m.endsWith(CARD)),
    ).toEqual(['POST /v1/message:stream', 'POST /v1/message:stream']);
  });
});
