import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoReply, INPUT_QUESTION, REPLY, REPLY_FILE, startV03Agent, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { runCli, SECRET } from '../run-cli.js';

const NOTE = new TextEncoder().encode('a note from the person');

let v1: FixtureAgent;
let v03: FixtureAgent;
beforeAll(async () => {
  [v1, v03] = await Promise.all([startV1Agent(), startV03Agent()]);
  // Three exchanges on thread `past` (the command's default handle), said by another process before.
  const client = createA2A({ identitySecret: SECRET });
  const thread = { agent: v1.url('/'), handle: 'default', thread: 'past' };
  for (const message of [
    { text: 'hello', files: [{ mediaType: 'text/plain', name: 'hello.txt', bytes: NOTE }] },
    { text: 'file' },
    { text: 'input' },
  ]) {
    await lastValueFrom(client.turn({ ...thread, ...message }));
  }
  await client.close();
});
afterAll(async () => {
  await Promise.all([v1.close(), v03.close()]);
});

describe('a4h history', () => {
  it('each exchange oldest first: "you: …" and files, the reply and its files, the outcome', async () => {
    const { code, stdout, stderr } = await runCli(['history', v1.url('/'), '--thread', 'past']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'you: hello',
        `[file] hello.txt (text/plain, ${NOTE.length} bytes)`,
        echoReply('hello'),
        '[completed]',
        '',
        'you: file',
        REPLY.file,
        `[file] ${REPLY_FILE.filename} (${REPLY_FILE.mediaType}, ${REPLY_FILE.text.length} bytes)`,
        '[completed]',
        '',
        'you: input',
        INPUT_QUESTION,
        '[input-required]',
        '',
      ].join('\n'),
    );
  });

  it('-o json --limit 2: one document, the newest two and the cursor; --before it: the one before, and no cursor', async () => {
    const newest = await runCli(['history', v1.url('/'), '--thread', 'past', '-o', 'json', '--limit', '2']);
    expect(newest.code).toBe(0);
    const page = JSON.parse(newest.stdout) as { exchanges: Record<string, unknown>[]; before?: string };
    expect(page.exchanges.map((e) => [e['reply'] ?? null, e['outcome'] ?? null])).toEqual([
      [REPLY.file, 'completed'],
      [INPUT_QUESTION, 'input-required'],
    ]);
    const file = (page.exchanges[0]!['attachments'] as { bytes: string }[])[0]!;
    expect(Buffer.from(file.bytes, 'base64').toString()).toBe(REPLY_FILE.text);
    expect(typeof page.before).toBe('string');
    const earlier = await runCli(['history', v1.url('/'), '--thread', 'past', '-o', 'json', '--limit', '2', '--before', page.before!]);
    const rest = JSON.parse(earlier.stdout) as { exchanges: { user: { text: string }[] }[]; before?: string };
    expect(rest.exchanges.map((e) => e.user[0]?.text)).toEqual(['hello']);
    expect(rest.before).toBeUndefined();
    expect(earlier.code).toBe(0);
  });

  it('a thread with nothing said: says so on stderr, exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['history', v1.url('/'), '--thread', 'silent']);
    expect([code, stdout]).toEqual([0, '']);
    expect(stderr).toContain('nothing said on thread "silent"');
  });

  it('a v0.3 agent: one error line that says there is no history, exit 1; with -o json the error envelope', async () => {
    const plain = await runCli(['history', v03.url('/')]);
    expect(plain.code).toBe(1);
    expect(plain.stderr.trim().split('\n')).toHaveLength(1);
    expect(plain.stderr).toMatch(/error: .*cannot list a conversation's tasks .*no history/);
    const json = await runCli(['history', v03.url('/'), '-o', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { message: expect.stringMatching(/no history/) } });
  });

  it.each([[['--limit', '0']], [['--before', 'not-a-cursor']]])('2 for bad usage: %j', async (flags) => {
    const { code, stderr } = await runCli(['history', v1.url('/'), ...flags]);
    expect(code).toBe(2);
    expect(stderr).not.toBe('');
  });
});
