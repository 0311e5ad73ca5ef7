import { describe, expect, it } from 'vitest';
import { INPUT_QUESTION, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { deriveContextId } from '../../../src/identity/context-id.js';
import { type NodeFetch } from '../../../src/node/fetch.js';
import { sentTo, settle } from '../doors-kit.js';
import { useAgentRig } from '../../agent-rig.js';

// The secret a gateway ran with, and the one that replaced it.
const OLD = 'the identity secret before rotation';
const NEW = 'the identity secret after the rotation';

let agent: FixtureAgent;
let http: NodeFetch;
useAgentRig(startV1Agent, (a, h) => ([agent, http] = [a, h]));

const before = () => createA2A({ identitySecret: OLD, fetch: http.fetch });
const after = () => createA2A({ identitySecret: NEW, previousIdentitySecrets: [OLD], fetch: http.fetch });
const listsOf = (contextId: string) =>
  agent.received.filter((r) => r.method === 'ListTasks' && JSON.stringify(r.params).includes(contextId)).length;
const thread = (handle: string, key: string) => ({ agent: agent.url('/'), handle, thread: key });

describe('rotating the identity secret (a real SDK agent, v1.0)', () => {
  it('a conversation started under the old secret continues under it after the rotation, once looked up per thread', async () => {
    const alice = thread('alice', 'rotation-1');
    const old = await deriveContextId(OLD, 'alice', 'rotation-1');
    const current = await deriveContextId(NEW, 'alice', 'rotation-1');
    const first = before();
    expect((await settle(first.turn({ ...alice, text: 'one' }))).error).toBeUndefined();
    await first.close();

    const client = after();
    const sent = sentTo(agent).length;
    const oldLists = listsOf(old);
    const { events, error } = await settle(client.turn({ ...alice, text: 'two' }));
    expect(error).toBeUndefined();
    expect(events).toContainEqual({ type: 'context-adopted', sent: current, adopted: old, reason: 'previous-secret' });
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', contextId: old });
    await settle(client.turn({ ...alice, text: 'three' }));
    // The agent's record: both messages in the old conversation, none in a new one.
    expect(
      sentTo(agent)
        .slice(sent)
        .map((m) => m.contextId),
    ).toEqual([old, old]);
    expect(listsOf(current)).toBe(1); // the first message looked once; the second did not look again
    expect(listsOf(old) - oldLists).toBe(2); // the rotation's lookup, then the waiting-task lookup in the conversation found
    expect(await client.contextIds('alice', 'rotation-1')).toEqual({ current, previous: [old] });
    await client.close();
  });

  it('a question asked before the rotation is answered after it: the same task continues', async () => {
    const bob = thread('bob', 'rotation-2');
    const first = before();
    const asked = (await settle(first.turn({ ...bob, text: 'input' }))).events.at(-1);
    expect(asked).toMatchObject({ type: 'end', outcome: 'input-required', text: INPUT_QUESTION });
    await first.close();

    const client = after();
    const { events } = await settle(client.turn({ ...bob, text: 'Paris' }));
    expect(events.at(-1)).toMatchObject({ type: 'end', taskId: (asked as { taskId: string }).taskId });
    expect(sentTo(agent).at(-1)).toMatchObject({
      contextId: await deriveContextId(OLD, 'bob', 'rotation-2'),
      taskId: (asked as { taskId: string }).taskId,
    });
    await client.close();
  });

  it("another person's first message after the rotation stays in their own conversation (no one else's old one)", async () => {
    const first = before();
    await settle(first.turn({ ...thread('carol', 'rotation-3'), text: 'my secret is 42' }));
    await first.close();

    const client = after();
    const { events } = await settle(client.turn({ ...thread('mallory', 'rotation-3'), text: 'what is her secret?' }));
    const mallorys = await deriveContextId(NEW, 'mallory', 'rotation-3');
    expect(events.some((e) => e.type === 'context-adopted')).toBe(false);
    expect(sentTo(agent).at(-1)?.contextId).toBe(mallorys);
    await client.close();
  });

  it('previous secrets without a current one are a config error; a short one is refused like the current one', () => {
    expect(() => createA2A({ previousIdentitySecrets: [OLD] })).toThrow(expect.objectContaining({ kind: 'config' }));
    expect(() => createA2A({ identitySecret: NEW, previousIdentitySecrets: ['short'] })).toThrow(
      expect.objectContaining({ kind: 'config' }),
    );
  });
});
