import { lastValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import type { ReceivedRequest } from '../../../fixtures/index.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { collect, endOf, FAST, rig, TARGETS, V03_REST, type Rig } from '../harness.js';

const CARD = 'GET /.well-known/agent-card.json';

/**
 * Every request of every binding names the protocol version it speaks: `A2A-Version: 1.0` to a v1.0
 * interface (§3.6.1: a MUST; an empty one means 0.3 to the agent), `0.3` to a v0.3 one (the v0.3
 * wire had no header; servers that know it read `0.3` as the empty value). The card request, made
 * before the version is known, asks for the v1.0 card (`1.0`: a dual-version server serves its v1.0
 * card for it and its v0.3 one without).
 */
for (const target of [...TARGETS, V03_REST]) {
  const version = target.name.startsWith('v1') ? '1.0' : '0.3';
  describe(`${target.name}: A2A-Version on every request`, () => {
    let r: Rig;
    afterEach(() => r.close());

    it(`stream, resubscribe, GetTask, CancelTask${version === '1.0' ? ', ListTasks' : ''} and the blocking send carry ${version}`, async () => {
      r = await rig(target);
      const port = r.ports(r.agent.url(target.main));
      const end = endOf(await collect(runTurn(port, { text: 'drop', contextId: 'ctx-version' }, FAST)));
      expect(end.outcome).toBe('completed');
      const taskId = end.taskId!;
      await lastValueFrom(port.getTask(taskId));
      await lastValueFrom(port.cancel(taskId)).catch(() => undefined); // a completed task is not cancelable; the request still counts
      if (version === '1.0') await lastValueFrom(port.listTasks!('ctx-version'));
      await lastValueFrom(port.send({ text: 'artifacts' }));

      const received = r.agent.received;
      const methods = received.map((request) => request.method);
      // The calls named above all reached the agent (the drop's resubscribe too).
      expect(methods.filter((m) => m !== CARD).length).toBeGreaterThanOrEqual(version === '1.0' ? 5 : 4);
      expect(methods.some((m) => /resubscribe|SubscribeToTask|TaskSubscription|:subscribe/.test(m))).toBe(true);
      for (const request of received) expect(versionOf(request), request.method).toBe(request.method === CARD ? '1.0' : version);
    });
  });
}

describe('A2A-Version on the authenticated extended card', () => {
  let agents: AuthAgents;
  beforeAll(async () => {
    agents = await startAuthAgents();
  });
  afterAll(() => agents.close());

  for (const [name, version] of [
    ['v1', '1.0'],
    ['v03', '0.3'],
  ] as const) {
    it(`${name}: the extended card's call carries ${version}`, async () => {
      const fixture = agents[name];
      const mount = name === 'v1' ? AUTH_MOUNTS.bearer : '/';
      const from = fixture.received.length;
      const ports = createSdkPorts({ credentials: { [fixture.baseUrl]: { bearer: AUTH_SECRETS.bearer } } });
      expect(await lastValueFrom(ports(fixture.url(mount)).card())).toMatchObject({ extended: true });
      const calls = fixture.received.slice(from).filter((r) => r.method !== CARD);
      expect(calls.map((r) => r.method)).toEqual([name === 'v1' ? 'GET /extendedAgentCard' : 'agent/getAuthenticatedExtendedCard']);
      expect(versionOf(calls[0]!)).toBe(version);
    });
  }
});

function versionOf(request: ReceivedRequest): string | undefined {
  return request.headers['a2a-version'];
}
