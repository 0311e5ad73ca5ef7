/**
 * `@reactive-agents/a2a` 0.9.0 (fixtures/agent-reactive.ts) through the library, with our reader and
 * the SDK's: its reply after its final status, `"id": null` on every unary answer, `"id": 1` on every
 * stream frame, a new contextId per message, a failure's status message as a plain string (the SDK's reader
 * is handed the stream's frames mended in the fetch: `src/sdk/wire/fetch/stream-frames.ts`).
 */
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { REACTIVE_FAILURE, reactiveReply, startReactiveAgent, type ReactiveAgent } from '../../fixtures/agent-reactive.js';
import { runTurn } from '../../src/turn/turn.js';
import { expectReply, folded, POLICY, run, useAgentPortsRig } from './kit.js';

for (const reader of ['a4h', 'sdk'] as const) {
  describe(`Reactive Agents 0.9.0 (v0.3 JSON-RPC, ${reader === 'sdk' ? "the SDK's" : 'our'} reader)`, () => {
    const rig = useAgentPortsRig<ReactiveAgent>(startReactiveAgent, reader);

    it('the final status first, then the artifact with the whole reply → the reply, once, from the stream alone', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.cardUrl), { text: 'hello', contextId: 'ctx-reactive' }, POLICY));
      const end = expectReply(result, reactiveReply('hello'));
      expect(end).toMatchObject({ taskId: agent.tasks[0] });
      expect(agent.received.map((r) => r.method)).toEqual(['GET /.well-known/agent.json', 'message/stream']);
    });

    it('two turns on one port, each stream numbered id 1 → both replies', async () => {
      const { agent, ports } = rig();
      const port = ports(agent.cardUrl);
      // Its first stream may be the process's call 1; the second is not: its frames still say 1 (the SDK's
      // reader is handed them renumbered: fetch/stream-frames.ts).
      const first = await run(runTurn(port, { text: 'one', contextId: 'ctx-reactive' }, POLICY));
      const second = await run(runTurn(port, { text: 'two', contextId: 'ctx-reactive' }, POLICY));
      expectReply(first, reactiveReply('one'));
      expectReply(second, reactiveReply('two'));
      expect(agent.tasks).toHaveLength(2);
    });

    it("a failure's status message given as a string → outcome failed, the agent's words shown", async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.cardUrl), { text: 'fail please', contextId: 'ctx-reactive' }, POLICY));
      expect(result.error).toBeUndefined();
      expect(result.events.at(-1)).toMatchObject({ type: 'end', outcome: 'failed', text: REACTIVE_FAILURE });
      expect(folded(result.events)).toBe(REACTIVE_FAILURE);
    });

    it('GetTask of a failed task: its status message, given as a string, is a text part of an agent message', async () => {
      const { agent, ports } = rig();
      const port = ports(agent.cardUrl);
      await firstValueFrom(port.send({ text: 'fail please', contextId: 'ctx-reactive', messageId: 'm-reactive-2' }));
      const task = await firstValueFrom(port.getTask(agent.tasks[0]!));
      expect(task.status).toMatchObject({ state: 'failed', message: { role: 'agent', parts: [{ kind: 'text', text: REACTIVE_FAILURE }] } });
      expect(task.status.message?.messageId).toBeUndefined();
    });

    it('GetTask and a blocking send answered with "id": null → the task', async () => {
      const { agent, ports } = rig();
      const port = ports(agent.cardUrl);
      const sent = await firstValueFrom(port.send({ text: 'hello', contextId: 'ctx-reactive', messageId: 'm-reactive-1' }));
      expect(sent).toMatchObject({ kind: 'task', task: { id: agent.tasks[0], status: { state: 'completed' } } });
      const task = await firstValueFrom(port.getTask(agent.tasks[0]!));
      expect(task).toMatchObject({ id: agent.tasks[0], status: { state: 'completed' } });
      expect(task.artifacts[0]?.parts).toMatchObject([{ kind: 'text', text: reactiveReply('hello') }]);
    });

    it("GetTask of a task it does not know → its error, on the request's own id: task-not-found by its data.a2aCode, the agent's code, name and words", async () => {
      const { agent, ports } = rig();
      await expect(firstValueFrom(ports(agent.cardUrl).getTask('no-such-task'))).rejects.toMatchObject({
        name: 'A2AError',
        kind: 'task-not-found',
        code: -32000,
        message: expect.stringContaining('TASK_NOT_FOUND: no-such-task'),
      });
    });
  });
}
