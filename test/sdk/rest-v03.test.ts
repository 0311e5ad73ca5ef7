import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLY, startV03Agent, V03_MOUNTS, type FixtureAgent } from '../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { runTurn } from '../../src/turn/turn.js';
import { collect, endOf, FAST, folded } from './harness.js';

// A v0.3 agent that offers only HTTP+JSON: the SDK's client drops `append` there (S6); repaired, the
// chunks render once.
describe('a v0.3 agent on HTTP+JSON only', () => {
  let agent: FixtureAgent;
  let http: NodeFetch;
  beforeAll(async () => {
    agent = await startV03Agent();
    http = createNodeFetch();
  });
  afterAll(async () => {
    await http.close();
    await agent.close();
  });

  for (const [text, reply] of [
    ['artifacts', REPLY.artifacts],
    ['drop', REPLY.drop],
  ] as const) {
    it(`${text}: appended chunks render once, the reply whole`, async () => {
      const ports = createSdkPorts({ fetch: http.fetch });
      const events = await collect(runTurn(ports(agent.url(V03_MOUNTS.rest)), { text }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: reply });
      expect(folded(events)).toBe(reply);
      // Appended on the wire, appended on screen: never a replace of what was shown.
      expect(events.filter((e) => e.type === 'text' && e.replace)).toEqual([]);
    });
  }
});
