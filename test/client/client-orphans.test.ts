/**
 * Orphan nothing (issue 48), through createA2A: a turn left before the agent named its task, whose
 * background read ends without the task named, looks the task up by its message and cancels it; the
 * client's close() waits for that lookup and its CancelTask as for any other CancelTask.
 */
import { defer, of, Subject } from 'rxjs';
import { expect, it } from 'vitest';
import { createA2A } from '../../src/client/create-a2a.js';
import type { AgentEvent, AgentMessage, Task } from '../../src/port/types.js';
import { createFakePort, task, testCard } from '../../src/testing/index.js';
import { eventually } from '../eventually.js';

const SECRET = 'correct horse battery staple 0123456789';

it('close() waits for the lookup of a message whose task was never named, and for the CancelTask it starts', async () => {
  const stream = new Subject<AgentEvent>();
  const cancelled = new Subject<Task>();
  let sent: string | undefined;
  const port = createFakePort({
    card: () => of(testCard()),
    stream: (message) => {
      sent = message.messageId;
      return stream;
    },
    // The first lookup is the thread's first message's (nothing waits on the thread); the second finds the task carrying it.
    listTasks: (contextId, call) =>
      defer(() => {
        if (call === 1) return of({ tasks: [] });
        const history: AgentMessage[] = [{ role: 'user', messageId: sent!, parts: [{ kind: 'text', text: 'hi' }] }];
        return of({ tasks: [{ ...task('T', 'working', { contextId }), history }] });
      }),
    cancel: () => cancelled,
  });
  const client = createA2A({ identitySecret: SECRET, ports: () => port, policy: { cancelTimeoutMs: 300 } });
  client.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi', contextId: 'C' }).subscribe().unsubscribe();
  let closed = false;
  const closing = client.close().then(() => (closed = true));
  // The background read (cancelTimeoutMs), then the lookup and the CancelTask (answered below, within its own cancelTimeoutMs).
  await eventually(() => port.calls.length === 5);
  expect(port.calls.map((c) => c.method)).toEqual(['card', 'listTasks', 'stream', 'listTasks', 'cancel']);
  expect(port.calls.at(-1)).toEqual({ method: 'cancel', taskId: 'T' });
  expect(closed).toBe(false);
  cancelled.next(task('T', 'canceled'));
  cancelled.complete();
  await closing;
  expect(closed).toBe(true);
  expect(stream.observed).toBe(false);
});
