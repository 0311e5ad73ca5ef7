import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import { createSdkPorts } from '../../src/sdk/ports.js';

// A2A 1.1 (draft): an answer names the generation its question was asked at (`end.generation`), so a
// second answer to the same question — another tab, another replica — is refused, not added.

const SECRET = 'answer-once-test-secret-0123456789';
let agent: V11Agent | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

const endOf = (events: TurnEvent[]) => events.at(-1) as Extract<TurnEvent, { type: 'end' }>;

describe('answers that cannot land twice (A2A 1.1)', () => {
  it('two processes answer one question with the generation it was asked at: one answer reaches the task, the other is a conflict', async () => {
    agent = await startV11Agent({ answerDelayMs: 150 });
    const url = agent.url(V11_MOUNTS.main);
    const first = createA2A({ identitySecret: SECRET });
    const asked = endOf(await lastValueFrom(first.turn({ agent: url, handle: 'h', thread: 'tabs', text: 'input' }).pipe(toArray())));
    expect(asked).toMatchObject({ outcome: 'input-required' });
    expect(asked.generation).toBeGreaterThan(0);
    const second = createA2A({ identitySecret: SECRET });
    const answer = (client: ReturnType<typeof createA2A>, text: string) =>
      lastValueFrom(
        client
          .turn({ agent: url, handle: 'h', thread: 'tabs', text, taskId: asked.taskId!, ifGenerationMatch: asked.generation! })
          .pipe(toArray()),
      ).then(
        (events) => ({ end: endOf(events) }),
        (error: unknown) => ({ error: error as { kind?: string; retryable?: boolean; message?: string } }),
      );
    const results = await Promise.all([answer(first, 'Paris'), answer(second, 'Rome')]);
    await Promise.all([first.close(), second.close()]);
    const ended = results.filter((result) => 'end' in result);
    const refused = results.filter((result) => 'error' in result);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.end).toMatchObject({ outcome: 'completed' });
    expect(refused).toEqual([{ error: expect.objectContaining({ kind: 'conflict', retryable: false }) }]);
    // The agent's own record: the precondition refused one send, and the task moved once past the question.
    expect(agent.record.requests.filter((request) => request.refused === -32010)).toHaveLength(1);
  });

  it('a 1.0 interface never sees ifGenerationMatch: the answer goes as ever', async () => {
    agent = await startV11Agent();
    const url = agent.url(V11_MOUNTS.v10);
    const a2a = createA2A({ identitySecret: SECRET });
    const asked = endOf(await lastValueFrom(a2a.turn({ agent: url, handle: 'h', thread: 'old', text: 'input' }).pipe(toArray())));
    expect(asked.generation).toBeUndefined();
    const answered = endOf(
      await lastValueFrom(
        a2a.turn({ agent: url, handle: 'h', thread: 'old', text: 'Paris', taskId: asked.taskId!, ifGenerationMatch: 7 }).pipe(toArray()),
      ),
    );
    await a2a.close();
    expect(answered).toMatchObject({ outcome: 'completed' });
    const sends = agent.record.of('SendStreamingMessage');
    expect(sends.every((request) => JSON.stringify(request.params).includes('ifGenerationMatch') === false)).toBe(true);
  });

  it("the thread's own answer (no taskId: the task it left waiting) names the question's generation: a second answer from another process is refused", async () => {
    agent = await startV11Agent({ answerDelayMs: 150 });
    const thread = { agent: agent.url(V11_MOUNTS.main), handle: 'h', thread: 'remembered' };
    const asking = createA2A({ identitySecret: SECRET });
    const asked = endOf(await lastValueFrom(asking.turn({ ...thread, text: 'input' }).pipe(toArray())));
    expect(asking.thread(thread.agent, thread.handle, thread.thread)).toMatchObject({
      interruptedTaskId: asked.taskId,
      interruptedGeneration: asked.generation,
    });
    const other = createA2A({ identitySecret: SECRET });
    const answer = (client: ReturnType<typeof createA2A>, input: Parameters<ReturnType<typeof createA2A>['turn']>[0]) =>
      lastValueFrom(client.turn(input).pipe(toArray())).then(
        (events) => ({ end: endOf(events) }),
        (error: unknown) => ({ error: error as { kind?: string } }),
      );
    // The other process answers by the interrupt; this one, a moment later, by the thread (it remembers the task).
    const byValue = answer(other, { ...thread, text: 'Paris', taskId: asked.taskId!, ifGenerationMatch: asked.generation! });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const byThread = answer(asking, { ...thread, text: 'Rome' });
    const [first, second] = await Promise.all([byValue, byThread]);
    await Promise.all([asking.close(), other.close()]);
    expect(first).toMatchObject({ end: { outcome: 'completed', taskId: asked.taskId } });
    expect(second).toEqual({ error: expect.objectContaining({ kind: 'conflict' }) });
    const toTask = agent.record.of('SendStreamingMessage', asked.taskId!);
    expect(toTask.map((request) => request.refused)).toEqual([undefined, -32010]);
  });

  it('a blocking send (an agent that does not stream, a push turn) carries the generation and the answered requests to a 1.1 interface too', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const ports = createSdkPorts();
    const port = ports(agent.url(V11_MOUNTS.main));
    const asked = await lastValueFrom(port.send({ text: 'input', returnImmediately: false }));
    if (asked.kind !== 'task') throw new Error(`a task was expected, not ${asked.kind}`);
    expect(asked.task.status.state).toBe('input-required');
    expect(asked.task.generation).toBeGreaterThan(0);
    const [ask] = asked.task.elicitations ?? [];
    expect(ask).toMatchObject({ state: 'blocked' });
    const answer = { text: 'Paris', taskId: asked.task.id, ifGenerationMatch: asked.task.generation!, elicitationIds: [ask!.id] };
    const answered = await lastValueFrom(port.send(answer));
    const late = await lastValueFrom(port.send({ ...answer, text: 'Rome' })).catch((error: unknown) => error);
    await ports.close();
    expect(answered).toMatchObject({ kind: 'task', task: { id: asked.task.id } });
    expect(late).toMatchObject({ kind: 'conflict', retryable: false });
    const sends = agent.record.of('SendMessage', asked.task.id);
    expect(sends.map((request) => request.refused)).toEqual([undefined, -32010]);
    expect(sends[0]!.params).toMatchObject({
      message: { elicitationIds: [ask!.id] },
      configuration: { ifGenerationMatch: String(asked.task.generation) },
    });
  });
});

describe('ifGenerationMatch, checked before anything goes', () => {
  it('is a whole number from 1, of the task the message names', async () => {
    const { checkRequest } = await import('../../src/turn/request.js');
    expect(() => checkRequest({ text: 'Paris', taskId: 'T', ifGenerationMatch: 3 })).not.toThrow();
    for (const bad of [{ ifGenerationMatch: 3 }, { taskId: 'T', ifGenerationMatch: 0 }, { taskId: 'T', ifGenerationMatch: 1.5 }]) {
      expect(() => checkRequest({ text: 'Paris', ...bad })).toThrow(expect.objectContaining({ kind: 'input' }));
    }
  });
});
