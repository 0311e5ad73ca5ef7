import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { INPUT_QUESTION } from '../../fixtures/behaviours.js';
import { answerTo } from '../../src/client/answer.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { EndEvent, TurnEvent } from '../../src/port/events.js';

// Interrupts as typed values: an input-required end carries the question, its task and (A2A 1.1 draft,
// ADR-002) the agent's requests for input; `answerTo` answers it by value, naming what it answers.

const SECRET = 'interrupt-test-secret-0123456789abcdef';
let agent: V11Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

const run = async (events$: ReturnType<ReturnType<typeof createA2A>['turn']>): Promise<EndEvent> =>
  (await lastValueFrom(events$.pipe(toArray()))).at(-1) as EndEvent;

/** The params of the sends that continued `taskId`, as the agent received them. */
const answersTo = (record: V11Agent['record'], taskId: string) =>
  record
    .of('SendStreamingMessage', taskId)
    .map((request) => request.params as { message: Record<string, unknown>; configuration?: Record<string, unknown> });

describe('interrupts as typed values', () => {
  it('a 1.1 agent: the interrupt carries its request for input and generation; the answer names both and resolves it', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const a2a = createA2A({ identitySecret: SECRET });
    const thread = { agent: agent.url(V11_MOUNTS.main), handle: 'h', thread: 'ask' };
    const asked = await run(a2a.turn({ ...thread, text: 'input' }));
    const interrupt = asked.interrupt!;
    const taskId = asked.taskId!;
    expect(interrupt).toEqual({
      kind: 'input',
      taskId,
      contextId: asked.contextId,
      text: INPUT_QUESTION,
      message: expect.objectContaining({ role: 'agent' }),
      elicitations: [{ id: `${taskId}/q1`, state: 'blocked', metadata: { kind: 'answer', round: 1 } }],
      generation: asked.generation,
    });
    const answer = answerTo(interrupt, 'Paris');
    expect(answer).toEqual({ text: 'Paris', taskId, elicitationIds: [`${taskId}/q1`], ifGenerationMatch: asked.generation });
    const done = await run(a2a.turn({ ...thread, ...answer }));
    await a2a.close();
    expect(done).toMatchObject({ outcome: 'completed', taskId });
    expect(done.interrupt).toBeUndefined();
    const [sent] = answersTo(agent.record, taskId);
    expect(sent!.message['elicitationIds']).toEqual([`${taskId}/q1`]);
    expect(sent!.configuration?.['ifGenerationMatch']).toBe(String(asked.generation));
    expect(agent.elicitations(taskId)).toEqual({ [`${taskId}/q1`]: 'ELICITATION_STATE_RESOLVED' });
  });

  it('fails open: a state it does not know is kept as unknown, an entry without an id is left out; the open ones are answered', async () => {
    agent = await startV11Agent({ elicitations: 'mixed' });
    const a2a = createA2A({ identitySecret: SECRET });
    const thread = { agent: agent.url(V11_MOUNTS.main), handle: 'h', thread: 'mixed' };
    const asked = await run(a2a.turn({ ...thread, text: 'input' }));
    const taskId = asked.taskId!;
    expect(asked.interrupt?.elicitations).toEqual([
      { id: `${taskId}/q1`, state: 'blocked', metadata: { kind: 'answer', round: 1 } },
      { id: `${taskId}/q1-note`, state: 'waiting', metadata: { kind: 'note' } },
      { id: `${taskId}/q1-later`, state: 'unknown' },
    ]);
    const answer = answerTo(asked.interrupt!, { text: 'yes' });
    expect(answer.elicitationIds).toEqual([`${taskId}/q1`, `${taskId}/q1-note`]);
    await run(a2a.turn({ ...thread, ...answer }));
    await a2a.close();
    expect(agent.elicitations(taskId)).toEqual({
      [`${taskId}/q1`]: 'ELICITATION_STATE_RESOLVED',
      [`${taskId}/q1-note`]: 'ELICITATION_STATE_RESOLVED',
      [`${taskId}/q1-later`]: 'ELICITATION_STATE_DEFERRED',
    });
  });

  it('an answer to a question answered already, from another process, is a conflict, not a new task; the agent got one answer', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const thread = { agent: agent.url(V11_MOUNTS.main), handle: 'h', thread: 'twice' };
    const first = createA2A({ identitySecret: SECRET });
    const asked = await run(first.turn({ ...thread, text: 'input' }));
    await run(first.turn({ ...thread, ...answerTo(asked.interrupt!, 'Paris') }));
    const second = createA2A({ identitySecret: SECRET });
    const late = await run(second.turn({ ...thread, ...answerTo(asked.interrupt!, 'Rome') })).catch((error: unknown) => error);
    await Promise.all([first.close(), second.close()]);
    expect(late).toMatchObject({ kind: 'conflict', retryable: false });
    // The agent's record: one answer reached the task; the late one went nowhere, not even to a new task.
    expect(answersTo(agent.record, asked.taskId!)).toHaveLength(1);
    expect(agent.record.of('SendStreamingMessage')).toHaveLength(2);
  });

  it('a 1.0 interface: the interrupt has no requests and no generation, and nothing of 1.1 reaches the wire', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const a2a = createA2A({ identitySecret: SECRET });
    const thread = { agent: agent.url(V11_MOUNTS.v10), handle: 'h', thread: 'old' };
    const asked = await run(a2a.turn({ ...thread, text: 'input' }));
    const taskId = asked.taskId!;
    expect(asked.interrupt).toEqual({
      kind: 'input',
      taskId,
      contextId: asked.contextId,
      text: INPUT_QUESTION,
      message: expect.objectContaining({ role: 'agent' }),
    });
    expect(answerTo(asked.interrupt!, 'Paris')).toEqual({ text: 'Paris', taskId });
    // Even ids a caller names itself stay off a 1.0 interface's wire.
    const done = await run(a2a.turn({ ...thread, ...answerTo(asked.interrupt!, { text: 'Paris', elicitationIds: ['e1'] }) }));
    await a2a.close();
    expect(done).toMatchObject({ outcome: 'completed' });
    const [sent] = answersTo(agent.record, taskId);
    expect(sent!.message).not.toHaveProperty('elicitationIds');
    expect(sent!.configuration ?? {}).not.toHaveProperty('ifGenerationMatch');
  });

  it('refuses elicitationIds that name no task, too many or a bad id, before anything goes', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const a2a = createA2A({ identitySecret: SECRET });
    const thread = { agent: agent.url(V11_MOUNTS.main), handle: 'h', thread: 'bad' };
    const refusals = await Promise.all(
      [
        { text: 'x', elicitationIds: ['e1'] },
        { text: 'x', taskId: 't1', elicitationIds: Array.from({ length: 65 }, (_, i) => `e${i}`) },
        { text: 'x', taskId: 't1', elicitationIds: ['ok', 'bad\nid'] },
      ].map((input) => run(a2a.turn({ ...thread, ...input })).catch((error: unknown) => error)),
    );
    await a2a.close();
    expect(refusals.map((error) => (error as { kind?: string; message?: string }).kind)).toEqual(['input', 'input', 'input']);
    expect((refusals[2] as Error).message).toContain('elicitationIds[1]');
    expect(agent.record.of('SendStreamingMessage')).toHaveLength(0);
  });
});
