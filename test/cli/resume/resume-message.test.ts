/**
 * `a4h resume --message ID [--sent-at WHEN]`: the turn of a message the agent got, or "never got it"
 * (exit 1) once the grace since it was sent has passed, and a line on stderr while it looks.
 */
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { runCli, SECRET } from '../run-cli.js';

let v1: FixtureAgent;
beforeAll(async () => {
  v1 = await startV1Agent();
  // Sent before, by another process, on the commands' default handle.
  const client = createA2A({ identitySecret: SECRET });
  await lastValueFrom(
    client.turn({ agent: v1.url('/'), handle: 'default', thread: 'resume-message', text: 'hello there', messageId: 'm-sent' }),
  );
  await client.close();
});
afterAll(async () => {
  await v1.close();
});

describe('a4h resume --message', { timeout: 30_000 }, () => {
  it('the turn of a message the agent got; stderr says what it looks for', async () => {
    const { code, stdout, stderr } = await runCli(['resume', v1.url('/'), '--thread', 'resume-message', '--message', 'm-sent']);
    expect(code).toBe(0);
    expect(stdout).toContain('hello there');
    expect(stderr).toMatch(
      /^a4h: looking for message "m-sent" on thread "resume-message" \(until 10 s from now before saying the agent never got it\)\n/,
    );
  });

  it('--sent-at a while ago: "never got it" at once (exit 1), the grace counted from then', async () => {
    const sentAt = new Date(Date.now() - 30_000).toISOString();
    const started = Date.now();
    const { code, stderr } = await runCli([
      'resume',
      v1.url('/'),
      '--thread',
      'resume-message',
      '--message',
      'm-never',
      '--sent-at',
      sentAt,
    ]);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(stderr).toContain(`(until 10 s from ${sentAt} before saying the agent never got it)`);
    expect(stderr).toContain('the agent never got message "m-never" on thread "resume-message": send it again');
  });

  it('--sent-at is refused without --message, or when it is not a time', async () => {
    const alone = await runCli(['resume', v1.url('/'), '--sent-at', '1700000000000']);
    expect([alone.code, alone.stderr]).toEqual([2, expect.stringContaining('--sent-at goes with --message')]);
    const bad = await runCli(['resume', v1.url('/'), '--message', 'm', '--sent-at', 'yesterday']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('--sent-at takes milliseconds since the epoch or an ISO 8601 time'),
    ]);
  });
});
