import { ClientFactory } from '@a2a-js/sdk/client';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listTasksOf } from '../../../src/port/port.js';
import { runTurn } from '../../../src/turn/turn.js';
import { collect, endOf, FAST, rig, TARGETS, type Rig, type Target } from '../harness.js';

const OWN_READER = TARGETS.find((t) => t.name === 'v1.0 JSON-RPC')!;
const SDK_READER = TARGETS.find((t) => t.name === 'v1.0 JSON-RPC, SDK reader')!;

/** A finished turn's task id, after a lookup of its conversation: what a thread's first message does. */
async function lookupAndTurn(r: Rig, target: Target): Promise<string> {
  const port = r.ports(r.agent.url(target.main));
  await lastValueFrom(listTasksOf(port, 'conversation-1'));
  const events = await collect(runTurn(port, { text: 'artifacts', contextId: 'conversation-1' }, FAST));
  const task = events.find((e) => e.type === 'task');
  expect(endOf(events).text).not.toBe('');
  return task?.type === 'task' ? task.taskId : '';
}

describe("the SDK's client of an agent is made when a call first needs it", () => {
  let r: Rig | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await r?.close();
    r = undefined;
  });

  it("our reader's lookup and turn make none; a GetTask makes one, and it is kept", async () => {
    const made = vi.spyOn(ClientFactory.prototype, 'createFromAgentCard');
    r = await rig(OWN_READER);
    const taskId = await lookupAndTurn(r, OWN_READER);
    expect(made).not.toHaveBeenCalled();
    const port = r.ports(r.agent.url(OWN_READER.main));
    expect((await lastValueFrom(port.getTask(taskId))).id).toBe(taskId);
    expect((await lastValueFrom(port.getTask(taskId))).id).toBe(taskId);
    expect(made).toHaveBeenCalledTimes(1);
  });

  it("the SDK's reader has it made with the agent, once", async () => {
    const made = vi.spyOn(ClientFactory.prototype, 'createFromAgentCard');
    r = await rig(SDK_READER);
    const taskId = await lookupAndTurn(r, SDK_READER);
    await lastValueFrom(r.ports(r.agent.url(SDK_READER.main)).getTask(taskId));
    expect(made).toHaveBeenCalledTimes(1);
  });

  it('a client that cannot be made: our reader still turns, and the calls that need it fail as a card error, tried once', async () => {
    const made = vi.spyOn(ClientFactory.prototype, 'createFromAgentCard').mockRejectedValue(new Error('no transport for it'));
    r = await rig(OWN_READER);
    const taskId = await lookupAndTurn(r, OWN_READER);
    const port = r.ports(r.agent.url(OWN_READER.main));
    for (let i = 0; i < 2; i++) {
      await expect(lastValueFrom(port.getTask(taskId))).rejects.toMatchObject({
        kind: 'card',
        message: expect.stringContaining("no client could be made for the agent's JSONRPC interface"),
      });
    }
    expect(made).toHaveBeenCalledTimes(1);
  });

  it('a client that cannot be made fails the SDK reader at the card, before anything is sent', async () => {
    vi.spyOn(ClientFactory.prototype, 'createFromAgentCard').mockRejectedValue(new Error('no transport for it'));
    r = await rig(SDK_READER);
    const port = r.ports(r.agent.url(SDK_READER.main));
    await expect(lastValueFrom(runTurn(port, { text: 'artifacts' }, FAST))).rejects.toMatchObject({ kind: 'card' });
    expect(r.agent.received.map((request) => request.path)).toEqual(['/.well-known/agent-card.json']);
  });
});
