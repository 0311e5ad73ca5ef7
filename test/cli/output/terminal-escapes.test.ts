/**
 * What `a4h` prints of an agent nobody vouched for reaches the terminal as text only: an agent whose
 * card, replies, artifact and file names and kept history carry escape sequences (clear the screen,
 * OSC 52 clipboard writes, the window title), their 8-bit C1 forms and lone CRs. Each command's stdout
 * and stderr hold no ESC, no BEL, no C1 control, no CR; what the agent said still shows, as text.
 * `a4h task download` names the files it writes without controls or bidi overrides.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ESCAPES, ESCAPES_SHOWN, REMOTE_FILE, startEscapesAgent } from '../../../fixtures/agent-escapes.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { runCliWithin, SECRET, type CliResult } from '../run-cli.js';

vi.setConfig({ testTimeout: 60_000 });
const runCli = runCliWithin(45_000);

let agent: FixtureAgent;
/** The task of the thread `escapes-said`'s one exchange (its artifact carries the files). */
let taskId: string;
beforeAll(async () => {
  agent = await startEscapesAgent();
  // Said before, by another process, on the commands' default handle: an exchange whose every word
  // the agent kept (the person's too, sent with the sequences), and a question left waiting.
  const client = createA2A({ identitySecret: SECRET });
  const said = await lastValueFrom(
    client.turn({ agent: agent.url('/'), handle: 'default', thread: 'escapes-said', text: `hello ${ESCAPES}` }),
  );
  if (said.type !== 'end' || said.taskId === undefined) throw new Error('no task');
  taskId = said.taskId;
  await lastValueFrom(client.turn({ agent: agent.url('/'), handle: 'default', thread: 'escapes-waiting', text: 'ask' }));
  await client.close();
});
afterAll(async () => {
  await agent.close();
});

/** No ESC, no BEL, no C1 control (U+0080–U+009F: 8-bit CSI, OSC, ST among them), no CR in either stream. */
function expectInert({ stdout, stderr }: CliResult): void {
  for (const text of [stdout, stderr]) {
    expect(text).not.toMatch(/\x1b/);
    expect(text).not.toMatch(/\x07/);
    expect(text).not.toMatch(/[\u0080-\u009f]/);
    expect(text).not.toMatch(/\r/);
  }
}

describe('agent text is data, never control', () => {
  it('a4h card: the name, description and skill show as text', async () => {
    const result = await runCli(['card', agent.url('/')]);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain(`agent ${ESCAPES_SHOWN}`);
    expect(result.stdout).toContain(`described ${ESCAPES_SHOWN}`);
    expect(result.stdout).toContain(`skill ${ESCAPES_SHOWN}: does ${ESCAPES_SHOWN}`);
  });

  it('a4h card -o json: C1 controls escaped in the JSON, the same name to a JSON reader', async () => {
    const result = await runCli(['card', agent.url('/'), '-o', 'json']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect((JSON.parse(result.stdout) as { name: string }).name).toBe(`agent ${ESCAPES}`);
  });

  it("a4h chat: the agent's name, the history it shows, the streamed reply and its files", async () => {
    const result = await runCli(['chat', agent.url('/'), '--thread', 'escapes-said'], { input: 'again\n' });
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stderr).toContain(`chatting with agent ${ESCAPES_SHOWN}`);
    expect(result.stderr).toContain(`you: hello ${ESCAPES_SHOWN.replace(' ', '\n')}`);
    expect(result.stdout).toContain(`reply ${ESCAPES_SHOWN.replace(' ', '\n')}`);
    // A file name keeps no bidi control: it would show reversed.
    expect(result.stdout).toContain('[file] invoicefdp.exe.txt (text/plain, 7 bytes)');
  });

  it('a4h history: what the person said, the reply and its files', async () => {
    const result = await runCli(['history', agent.url('/'), '--thread', 'escapes-said']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stdout).toContain(`you: hello ${ESCAPES_SHOWN.replace(' ', '\n')}`);
    expect(result.stdout).toContain(`[file] remote ${ESCAPES_SHOWN} (text/plain, ${REMOTE_FILE})`);
  });

  it('a4h resume: the question left waiting and what it answers', async () => {
    const result = await runCli(['resume', agent.url('/'), '--thread', 'escapes-waiting']);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stderr).toContain('you: ask');
    expect(result.stdout).toContain(`reply ${ESCAPES_SHOWN.replace(' ', '\n')}`);
  });

  it('a4h task download: the record, the "not fetched" line, the saved paths', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a4h-escapes-'));
    const result = await runCli(['task', 'download', taskId, '-a', agent.url('/'), '--dir', dir]);
    expect(result.code).toBe(0);
    expectInert(result);
    expect(result.stderr).toContain(`not fetched: remote ${ESCAPES_SHOWN} at ${REMOTE_FILE}`);
  });
});

describe('a4h task download names files safely', () => {
  it('no C0, DEL or C1 control and no bidi control in a name written; each file inside the directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'a4h-names-'));
    const result = await runCli(['task', 'download', taskId, '-a', agent.url('/'), '--dir', dir]);
    expect(result.code).toBe(0);
    const names = await readdir(dir);
    // The artifact's text, the file named with the sequences, the one reversed by an override.
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/);
    expect(names).toContain('invoicefdp.exe2J.txt');
    expect(await readFile(join(dir, 'invoicefdp.exe2J.txt'), 'utf8')).toBe('content');
  });
});
