import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { GRPC_MOUNTS, startGrpcAgent } from '../../../fixtures/agent-grpc.js';
import { startV1Agent, V1_TENANT } from '../../../fixtures/index.js';
import { runTurn } from '../../../src/turn/turn.js';
import { calls, FAST, rig, TARGETS, type Rig } from '../harness.js';

type Params = {
  message?: { messageId?: string; contextId?: string; role?: string };
  configuration?: Record<string, unknown>;
  tenant?: string;
};

for (const target of TARGETS) {
  describe(`${target.name}: send hygiene on the wire`, () => {
    let r: Rig;
    afterEach(() => r.close());

    it("historyLength, the caller's output modes, a fresh messageId per send, role user", async () => {
      r = await rig(target, ['text/plain', 'image/png']);
      const port = r.ports(r.agent.url(target.main));
      await lastValueFrom(runTurn(port, { text: 'artifacts', contextId: 'ctx-h' }, FAST));
      await lastValueFrom(runTurn(port, { text: 'artifacts', contextId: 'ctx-h' }, FAST));
      const sent = calls(r.agent, target, 'stream').map((c) => c.params as Params);
      expect(sent).toHaveLength(2);
      for (const params of sent) {
        expect(params.configuration?.['historyLength']).toBe(target.historyLength);
        expect(params.configuration?.['acceptedOutputModes']).toEqual(['text/plain', 'image/png']);
        expect(params.message?.contextId).toBe('ctx-h');
        expect(String(params.message?.role).toLowerCase()).toContain('user');
      }
      expect(sent[0]?.message?.messageId).toBeTruthy();
      expect(sent[0]?.message?.messageId).not.toBe(sent[1]?.message?.messageId);
    });

    it('no tenant is sent when the card declares none', async () => {
      r = await rig(target);
      await lastValueFrom(runTurn(r.ports(r.agent.url(target.main)), { text: 'artifacts' }, FAST));
      for (const request of r.agent.received) {
        expect(JSON.stringify(request.params ?? {})).not.toContain('"tenant":"acme"');
        expect(request.path).not.toContain(V1_TENANT);
      }
    });
  });
}

describe('v1.0: the tenant of the chosen interface is on every request', () => {
  let r: Rig;
  afterEach(() => r.close());

  for (const [binding, start] of [
    ['JSON-RPC', startV1Agent],
    ['gRPC', startGrpcAgent],
  ] as const)
    it(`send, resubscribe, get and cancel all carry it (${binding})`, async () => {
      r = await rig({ ...TARGETS[0]!, start, main: GRPC_MOUNTS.tenant });
      const port = r.ports(r.agent.url('/tenant/'));
      const end = await lastValueFrom(runTurn(port, { text: 'drop' }, FAST));
      expect(end).toMatchObject({ type: 'end', outcome: 'completed' });
      const taskId = (end as { taskId: string }).taskId;
      await lastValueFrom(port.getTask(taskId));
      await lastValueFrom(port.cancel(taskId)).catch(() => undefined); // a completed task cannot be canceled; the request still counts
      expect((await lastValueFrom(port.card())).tenant).toBe(V1_TENANT);
      const rpc = r.agent.received.filter((request) => request.mount === '/tenant/' && !request.method.startsWith('GET '));
      expect(rpc.map((request) => request.method)).toEqual(
        expect.arrayContaining(['SendStreamingMessage', 'SubscribeToTask', 'GetTask', 'CancelTask']),
      );
      for (const request of rpc) expect((request.params as Params).tenant, request.method).toBe(V1_TENANT);
    });
});
