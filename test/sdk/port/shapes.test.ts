import { describe, expect, it } from 'vitest';
import { AUTH_PROMPT, bookedReply, FAIL_MESSAGE, INPUT_QUESTION, REPLY } from '../../../fixtures/index.js';
import { runTurn } from '../../../src/turn/turn.js';
import { calls, collect, endOf, FAST, folded, useTargetRig, TARGETS, type Rig } from '../harness.js';

for (const target of TARGETS) {
  describe(`${target.name}: every shape renders its reply once`, () => {
    let r: Rig;
    useTargetRig(target, (x) => (r = x));

    const port = () => r.ports(r.agent.url(target.main));

    for (const [text, reply] of [
      ['artifacts', REPLY.artifacts],
      ['status', REPLY.status],
      ['message', REPLY.message],
    ] as const) {
      it(`${text}: "${reply}"`, async () => {
        const events = await collect(runTurn(port(), { text, contextId: 'ctx-shapes-1' }, FAST));
        expect(events[0]).toEqual({ type: 'start', contextId: 'ctx-shapes-1', messageId: expect.any(String) });
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: reply });
        expect(folded(events)).toBe(reply);
        expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
        expect(calls(r.agent, target, 'stream')).toHaveLength(1);
      });
    }

    it('fail: outcome failed with the agent message', async () => {
      const events = await collect(runTurn(port(), { text: 'fail' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'failed', text: FAIL_MESSAGE });
    });

    it('history: a task completed with its answer only in its history ends with that answer, read with one GetTask', async () => {
      const events = await collect(runTurn(port(), { text: 'history' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.history });
      expect(folded(events)).toBe(REPLY.history);
      // v1.0 streams the task with historyLength 0, so the answer is read with GetTask; v0.3's 1 shows it at once.
      expect(calls(r.agent, target, 'get')).toHaveLength(target.name.startsWith('v1.0') ? 1 : 0);
      expect(calls(r.agent, target, 'cancel')).toEqual([]);
    });

    it('input: outcome input-required; the follow-up with the task id completes that task', async () => {
      const first = endOf(await collect(runTurn(port(), { text: 'input', contextId: 'ctx-input-1' }, FAST)));
      expect(first).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION, contextId: 'ctx-input-1' });
      expect(first.taskId).toBeTruthy();
      // The question as a value to answer: its task and text; a 1.0 or 0.3 agent has no requests for input, no generation.
      expect(first.interrupt).toEqual({
        kind: 'input',
        taskId: first.taskId,
        contextId: 'ctx-input-1',
        text: INPUT_QUESTION,
        message: expect.objectContaining({ role: 'agent' }),
      });
      // The agent opens the follow-up's stream with the task as it was (still input-required, the old
      // question), as agents on @a2a-js/sdk 1.x do: the turn reads on to the answer.
      const events = await collect(runTurn(port(), { text: 'Paris', contextId: 'ctx-input-1', taskId: first.taskId! }, FAST));
      expect(events).toContainEqual(expect.objectContaining({ type: 'status', state: 'input-required', text: INPUT_QUESTION }));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: bookedReply('Paris'), taskId: first.taskId });
      expect(folded(events)).toBe(bookedReply('Paris'));
      expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
      expect(calls(r.agent, target, 'stream')).toHaveLength(2);
      expect(calls(r.agent, target, 'cancel')).toEqual([]);
    });

    if (target.keepsAuthOpen) {
      it('auth: announced at once, then the agent resumes by itself on the open stream to completed', async () => {
        const events = await collect(runTurn(port(), { text: 'auth' }, FAST));
        expect(events).toContainEqual(expect.objectContaining({ type: 'auth-required', text: AUTH_PROMPT }));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.auth });
      });
    } else {
      it('auth: announced at once; the server closes the stream, one GetTask finds it waiting: outcome auth-required', async () => {
        const events = await collect(runTurn(port(), { text: 'auth' }, FAST));
        expect(events).toContainEqual(expect.objectContaining({ type: 'auth-required', text: AUTH_PROMPT }));
        expect(endOf(events)).toMatchObject({ outcome: 'auth-required', text: AUTH_PROMPT });
        expect(endOf(events).interrupt).toMatchObject({ kind: 'auth', text: AUTH_PROMPT, taskId: endOf(events).taskId });
        expect(endOf(events).interrupt).toMatchObject({ kind: 'auth', text: AUTH_PROMPT, taskId: endOf(events).taskId });
        expect(calls(r.agent, target, 'get')).toHaveLength(1);
        expect(calls(r.agent, target, 'cancel')).toEqual([]);
      });
    }

    it('auth: outcome auth-required when the auth wait runs out first', async () => {
      const events = await collect(runTurn(port(), { text: 'auth' }, { policy: { ...FAST.policy, authWaitMs: 100 } }));
      expect(endOf(events)).toMatchObject({ outcome: 'auth-required', text: AUTH_PROMPT });
      expect(calls(r.agent, target, 'cancel')).toEqual([]);
    });

    it('the contextId we send is the one the agent sees', async () => {
      await collect(runTurn(port(), { text: 'artifacts', contextId: 'ctx-seen-by-agent' }, FAST));
      const [sent] = calls(r.agent, target, 'stream');
      expect(JSON.stringify(sent?.params)).toContain('"contextId":"ctx-seen-by-agent"');
    });
  });
}
