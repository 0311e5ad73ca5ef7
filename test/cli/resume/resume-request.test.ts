/** What `a4h resume` shows of what a resumed reply answers (`you: …`): dimmed, on stderr. */
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalIo } from '../terminal-io.js';
import { INPUT_QUESTION, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { TurnPrinter } from '../../../src/cli/turns/printer.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { runCli, SECRET } from '../run-cli.js';

let v1: FixtureAgent;
beforeAll(async () => {
  v1 = await startV1Agent();
  // Asked before, by another process, on the commands' default handle: a question left waiting.
  const client = createA2A({ identitySecret: SECRET });
  await lastValueFrom(client.turn({ agent: v1.url('/'), handle: 'default', thread: 'resume-you', text: 'input' }));
  await client.close();
});
afterAll(async () => {
  await v1.close();
});

describe('a4h resume shows what the reply answers', () => {
  it('"you: …" on stderr, before the reply; stdout keeps the reply alone', async () => {
    const { code, stdout, stderr } = await runCli(['resume', v1.url('/'), '--thread', 'resume-you']);
    expect([code, stdout]).toEqual([0, `${INPUT_QUESTION}\n`]); // the command did its job: 0, the question named on stderr
    expect(stderr).toBe('you: input\n');
  });
});

describe('dimmed on a terminal', () => {
  const terminal = terminalIo;

  it("the request of a resumed reply, under the printer's hand", () => {
    const { io, written } = terminal();
    new TurnPrinter(io).show({ type: 'request', text: 'hi' });
    expect(written()).toBe('\x1b[2myou: hi\x1b[22m\n');
  });
});
