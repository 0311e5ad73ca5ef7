/**
 * `ForwardingPort`, the one way to decorate a port, used as docs/client.md's "Decorating a port"
 * shows it: its snippet is examples/node/logged-port.mjs verbatim, that example runs against a fixture
 * agent (its calls logged, its reply printed), and a subclass overriding one call forwards the rest.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstValueFrom, lastValueFrom, map, of, toArray, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent } from '../fixtures/agent-v1.js';
import type { FixtureAgent } from '../fixtures/types.js';
import { createA2A } from '../src/client/create-a2a.js';
import { ForwardingPort } from '../src/port/forwarding.js';
import type { A2APort } from '../src/port/port.js';
import type { AgentEvent, OutgoingMessage } from '../src/port/types.js';
import { createFakePort } from '../src/testing/fake-port.js';
import { ev, task, testCard } from '../src/testing/events.js';
import { ROOT } from './packed.js';

const EXAMPLE = join(ROOT, 'examples', 'node', 'logged-port.mjs');

describe("docs/client.md's Decorating a port", () => {
  it('is examples/node/logged-port.mjs verbatim: its imports, then its decorator and the client made with it', () => {
    const page = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');
    const block = /## Decorating a port[\s\S]*?```js\n([\s\S]*?)```/.exec(page)?.[1];
    expect(block).toBeDefined();
    const example = readFileSync(EXAMPLE, 'utf8');
    const [imports, decorator] = [block!.slice(0, block!.indexOf('\n\n') + 1), block!.slice(block!.indexOf('\n\n') + 2)];
    expect(imports).toMatch(/^import .*ForwardingPort.* from 'a4h-a2a\/node';$/m);
    expect(example).toContain(imports);
    expect(decorator).toMatch(/^class LoggedPort extends ForwardingPort \{$/m);
    expect(decorator).toMatch(/^const a2a = createA2A\(\{ ports: /m);
    expect(example).toContain(`${decorator}// End of the decorator`);
  });
});

/** A decorator as the docs write one: it overrides `stream` alone, and marks each event it passes on. */
class MarkedPort extends ForwardingPort {
  readonly streamed: string[] = [];
  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    this.streamed.push(message.text);
    return super
      .stream(message)
      .pipe(
        map((event) =>
          event.kind === 'message' ? ev.message(`${event.message.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('')}!`) : event,
        ),
      );
  }
}

describe('ForwardingPort', () => {
  const inner = () =>
    createFakePort({
      card: () => of(testCard()),
      send: () => of(ev.task('t1', 'completed')),
      stream: () => of(ev.message('hello')),
      resubscribe: () => of(ev.task('t1', 'working')),
      getTask: () => of(task('t1', 'working')),
      cancel: () => of(task('t1', 'canceled')),
      listTasks: () => of({ tasks: [] }),
    });
  const message: OutgoingMessage = { text: 'hi', messageId: 'm1' };

  it('forwards every call a subclass does not override to the port it wraps, as it is', async () => {
    const fake = inner();
    const port = new MarkedPort(fake);
    expect(await firstValueFrom(port.card())).toEqual(testCard());
    expect(await firstValueFrom(port.send(message))).toEqual(ev.task('t1', 'completed'));
    expect(await lastValueFrom(port.resubscribe('t1').pipe(toArray()))).toEqual([ev.task('t1', 'working')]);
    expect(await firstValueFrom(port.getTask('t1', 3))).toEqual(task('t1', 'working'));
    expect(await firstValueFrom(port.cancel('t1'))).toEqual(task('t1', 'canceled'));
    expect(await firstValueFrom(port.listTasks('ctx', { pageSize: 5 }))).toEqual({ tasks: [] });
    expect(await lastValueFrom(port.stream(message).pipe(toArray()))).toEqual([ev.message('hello!')]);
    expect(fake.calls.map((call) => call.method)).toEqual(['card', 'send', 'resubscribe', 'getTask', 'cancel', 'listTasks', 'stream']);
    expect(fake.calls).toContainEqual({ method: 'getTask', taskId: 't1', historyLength: 3 });
    expect(fake.calls).toContainEqual({ method: 'listTasks', contextId: 'ctx', options: { pageSize: 5 } });
    expect(port.streamed).toEqual(['hi']);
  });

  it('over a port without listTasks, answers ListTasks with an unsupported error', async () => {
    const { listTasks: _none, ...withoutList } = inner();
    const port = new ForwardingPort(withoutList as A2APort);
    await expect(firstValueFrom(port.listTasks('ctx'))).rejects.toMatchObject({ kind: 'unsupported', operation: 'list-tasks' });
  });

  it("decorates createA2A's ports, given as its `ports`: a turn's stream goes through the decorator", async () => {
    const decorated: MarkedPort[] = [];
    const a2a = createA2A({
      identitySecret: 'decorating-a-port-test-secret-0123',
      ports: () => {
        const port = new MarkedPort(inner());
        decorated.push(port);
        return port;
      },
    });
    try {
      const events = await lastValueFrom(a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi' }).pipe(toArray()));
      expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'hello!' });
      expect(decorated.flatMap((port) => port.streamed)).toEqual(['hi']);
    } finally {
      await a2a.close();
    }
  });
});

describe('examples/node/logged-port.mjs', () => {
  let agent: FixtureAgent | undefined;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'node', 'index.js'))) throw new Error('dist/node/index.js is missing: run `npm run build` first');
    agent = await startV1Agent();
  });
  afterAll(() => agent?.close());

  /** The example run as a program from its folder, with only PATH and a secret, for at most 15 s. */
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const env = { PATH: process.env.PATH ?? '', A4H_IDENTITY_SECRET: 'logged-port-example-secret-0123456789' };
      execFile(process.execPath, [EXAMPLE, ...args], { cwd: dirname(EXAMPLE), env, timeout: 15_000 }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
      );
    });

  it("logs the card and the stream calls on stderr, each when it starts and when it ends, and prints the agent's reply", async () => {
    const result = await run([agent!.url('/'), 'hi from the logged port']);
    expect(result.stdout).toBe('echo: hi from the logged port\n[completed]\n');
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      '-> card',
      expect.stringMatching(/^<- card: done in \d+ ms$/),
      expect.stringMatching(/^-> stream [\w-]+$/),
      expect.stringMatching(/^<- stream [\w-]+: (done in|closed after) \d+ ms$/),
    ]);
    // The agent was asked what was logged, and a ListTasks (the thread's first message looks for a task
    // left waiting) that went by unlogged: LoggedPort does not decorate it, so it was forwarded as it is.
    expect(agent!.received.map((request) => request.method).sort()).toEqual([
      'GET /.well-known/agent-card.json',
      'ListTasks',
      'SendStreamingMessage',
    ]);
  });

  it('--help prints its usage, exit 0; a flag it does not take, exit 2', async () => {
    expect(await run(['--help'])).toEqual({
      code: 0,
      stdout: 'Usage: node examples/node/logged-port.mjs [AGENT_URL] [MESSAGE]\n',
      stderr: '',
    });
    const bad = await run(['--nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^unknown flag --nope\nUsage: /);
  });
});
