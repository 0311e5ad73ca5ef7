import { lastValueFrom, of, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createA2A } from '../src/client/create-a2a.js';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, task, testCard, type FakePortCall } from '../src/testing/index.js';

const OLD = 'the identity secret before rotation';
const NEW = 'the identity secret after the rotation';
const AGENT = 'http://127.0.0.1:1/';
const settle = (turn$: ReturnType<ReturnType<typeof createA2A>['turn']>) =>
  lastValueFrom(turn$.pipe(toArray())).then(
    (events) => ({ events, error: undefined as unknown }),
    (error: unknown) => ({ events: [], error }),
  );
const lists = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'listTasks').map((c) => (c as { contextId: string }).contextId);

describe('the look under previous secrets is once per thread, and only once it happened', () => {
  it('a first message that fails before it reaches a task (the card) leaves the look to the next message', async () => {
    const oldContext = await createA2A({ identitySecret: OLD }).contextId('h', 't');
    const port = createFakePort({
      card: (n) => (n === 1 ? throwError(() => new A2AError({ kind: 'card', message: 'no card' })) : of(testCard())),
      listTasks: (contextId) => of({ tasks: contextId === oldContext ? [task('T1', 'completed', { contextId })] : [] }),
      stream: () => of(ev.message('ok')),
    });
    const client = createA2A({
      identitySecret: NEW,
      previousIdentitySecrets: [OLD],
      ports: () => port,
      policy: { continueInterrupted: false },
    });
    const input = { agent: AGENT, handle: 'h', thread: 't' };
    expect((await settle(client.turn({ ...input, text: 'one' }))).error).toMatchObject({ kind: 'card' });
    const second = await settle(client.turn({ ...input, text: 'two' }));
    expect(second.events).toContainEqual(
      expect.objectContaining({ type: 'context-adopted', adopted: oldContext, reason: 'previous-secret' }),
    );
    await settle(client.turn({ ...input, text: 'three' }));
    const sent = port.calls.flatMap((c) => ('message' in c ? [c.message.contextId] : []));
    expect(sent).toEqual([oldContext, oldContext]);
    expect(lists(port.calls)).toEqual([await client.contextId('h', 't'), oldContext]); // looked once, on the second message
    expect(client.thread(AGENT, 'h', 't')?.adoptedContextId).toBe(oldContext);
    await client.close();
  });

  it('a thread whose caller gives its contextId looks nowhere else', async () => {
    const port = createFakePort({ card: () => of(testCard()), listTasks: () => of({ tasks: [] }), stream: () => of(ev.message('ok')) });
    const client = createA2A({
      identitySecret: NEW,
      previousIdentitySecrets: [OLD],
      ports: () => port,
      policy: { continueInterrupted: false },
    });
    await settle(client.turn({ agent: AGENT, handle: 'h', thread: 't', contextId: 'given', text: 'one' }));
    expect(lists(port.calls)).toEqual([]);
    await client.close();
  });
});
