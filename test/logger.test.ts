/**
 * `logger: console` (the README's first program) reads sentence first; a structured logger (pino and
 * its like) gets the fields and the message as they are.
 */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { concat, NEVER, of } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { readableLogger, type Logger } from '../src/logger.js';
import { createA2A as createCoreA2A } from '../src/client/create-a2a.js';
import { createA2A } from '../src/node/create-a2a.js';
import { createFakePort, ev, task, testCard } from '../src/testing/index.js';

/** A console that writes (stdout and stderr) into `lines`. */
function consoleInto(): { console: Console; printed: () => string } {
  let printed = '';
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => ((printed += chunk.toString()), done()) });
  return { console: new Console({ stdout: stream, stderr: stream }), printed: () => printed };
}

describe('readableLogger', () => {
  it('a console: the sentence first, prefixed, then the fields the sentence does not name', () => {
    const { console, printed } = consoleInto();
    const logger = readableLogger(console as unknown as Logger);
    logger.warn({ taskId: 't-1', agent: 'http://a/' }, 'CancelTask to http://a/ failed');
    logger.info({}, 'nothing else to say');
    expect(printed()).toBe("a4h-a2a: CancelTask to http://a/ failed { taskId: 't-1' }\na4h-a2a: nothing else to say\n");
    expect(readableLogger(console as unknown as Logger)).toBe(logger); // one adapter per console
  });

  it('a structured logger is left as it is', () => {
    const pino: Logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    expect(readableLogger(pino)).toBe(pino);
  });
});

describe("the Node entry's createA2A with logger: console", () => {
  it('an abandoned turn logs `a4h-a2a: cancelling the abandoned task { taskId }`; the missing secret one sentence, once', async () => {
    vi.stubEnv('A4H_IDENTITY_SECRET', '');
    const { console, printed } = consoleInto();
    try {
      const port = createFakePort({
        card: () => of(testCard()),
        stream: () => concat(of(ev.task('t-42', 'working')), NEVER),
        cancel: () => of(task('t-42', 'canceled')),
      });
      const a2a = createA2A({ logger: console as unknown as Logger, ports: () => port });
      const again = createA2A({ logger: console as unknown as Logger, ports: () => port });
      await again.contextId('h', 'u');
      const turn = a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi' }).subscribe();
      await new Promise((resolve) => setTimeout(resolve, 20));
      turn.unsubscribe();
      await a2a.close();
      await again.close();
      expect(printed()).toContain("a4h-a2a: cancelling the abandoned task { taskId: 't-42' }\n");
      expect(printed().match(/^a4h-a2a: No identity secret is set \(A4H_IDENTITY_SECRET\)[^\n]*restart\.$/gm)).toHaveLength(1);
      expect(printed()).not.toMatch(/^\{/m); // no line starts with its fields
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("the core's createA2A with logger: console (a browser app's)", () => {
  it('reads sentence first too', async () => {
    const { console, printed } = consoleInto();
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => concat(of(ev.task('t-43', 'working')), NEVER),
      cancel: () => of(task('t-43', 'canceled')),
    });
    const a2a = createCoreA2A({
      identitySecret: 'a core logger test secret, 32 b!',
      logger: console as unknown as Logger,
      ports: () => port,
    });
    const turn = a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi' }).subscribe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    turn.unsubscribe();
    await a2a.close();
    expect(printed()).toContain("a4h-a2a: cancelling the abandoned task { taskId: 't-43' }\n");
  });
});
