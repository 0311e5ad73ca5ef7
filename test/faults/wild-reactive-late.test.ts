/**
 * `@reactive-agents/a2a` 0.9.0's wire (fixtures/agent-reactive.ts) with its artifact frame later than
 * its final status, and a `tasks/get` that works or fails, through the library's turn: the reply is
 * shown exactly once when it arrives at all; when it cannot be read, the end says so
 * (`replyMissing: unread`), never a plain success. The quiet after a bare final status is 250 ms
 * here (POLICY's idle bound is 500 ms).
 */
import { describe, expect, it } from 'vitest';
import { reactiveReply, startReactiveAgent, type ReactiveAgent, type ReactiveOptions } from '../../fixtures/agent-reactive.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import type { EndEvent } from '../../src/port/events.js';
import type { PortFactory } from '../../src/port/port.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { runTurn } from '../../src/turn/turn.js';
import { expectReply, POLICY, run, useFreshRig, type TurnResult } from './kit.js';

type Rig = { agent: ReactiveAgent; http: NodeFetch; ports: PortFactory };

/** A fresh variant agent per test (its options set by the test through `use`), our reader. */
function useLateRig(): (options: ReactiveOptions) => Promise<Rig> {
  const rig = useFreshRig<{ current?: Rig }>(
    async () => ({}),
    async (r) => {
      await r.current?.http.close();
      await r.current?.agent.close();
    },
  );
  return async (options) => {
    const agent = await startReactiveAgent(options);
    const http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
    return (rig().current = { agent, http, ports: createSdkPorts({ fetch: http.fetch }) });
  };
}

const turn = (r: Rig): Promise<TurnResult> => run(runTurn(r.ports(r.agent.cardUrl), { text: 'hello', contextId: 'ctx-late' }, POLICY));
const methods = (r: Rig) => r.agent.received.map((q) => q.method);

describe('Reactive Agents, its artifact later than its final status (v0.3 JSON-RPC, our reader)', () => {
  const use = useLateRig();

  it('100 ms later (inside the 250 ms quiet) → the reply once, from the stream; no tasks/get', async () => {
    const r = await use({ lateArtifactMs: 100 });
    const end = expectReply(await turn(r), reactiveReply('hello'));
    expect(end.replyMissing).toBeUndefined();
    expect(methods(r)).toEqual(['GET /.well-known/agent.json', 'message/stream']);
  });

  it('400 ms later (the stream left at 250 ms), tasks/get answers → the reply once, from the task read back', async () => {
    const r = await use({ lateArtifactMs: 400 });
    const end = expectReply(await turn(r), reactiveReply('hello'));
    expect(end.replyMissing).toBeUndefined();
    expect(methods(r)).toEqual(['GET /.well-known/agent.json', 'message/stream', 'tasks/get']);
  });

  for (const lateArtifactMs of [400, 700]) {
    it(`${lateArtifactMs} ms later${lateArtifactMs > 500 ? ' (past the idle bound)' : ''}, tasks/get fails → completed, no text, replyMissing unread with the agent's error`, async () => {
      const r = await use({ lateArtifactMs, getTaskFails: true });
      const result = await turn(r);
      expect(result.error).toBeUndefined();
      expect(result.events.filter((e) => e.type === 'text')).toEqual([]);
      const end = result.events.at(-1) as EndEvent;
      expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: '', taskId: r.agent.tasks[0] });
      expect(end.replyMissing).toMatchObject({ reason: 'unread', cause: { name: 'A2AError', code: -32603 } });
      expect(methods(r)).toEqual(['GET /.well-known/agent.json', 'message/stream', 'tasks/get']);
    });
  }

  it('at once (the published wire), tasks/get failing is never asked: the reply once, no flag', async () => {
    const r = await use({ getTaskFails: true });
    const end = expectReply(await turn(r), reactiveReply('hello'));
    expect(end.replyMissing).toBeUndefined();
  });
});
