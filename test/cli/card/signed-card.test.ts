import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_MOUNTS, startSignedAgents, type SignedAgents } from '../../../fixtures/agent-signed.js';
import { REPLY } from '../../../fixtures/index.js';
import { requests } from '../../sdk/credentials-kit.js';
import { blocksOf, jsonLines, runCli } from '../run-cli.js';

// The command's signed-card flags: the verdict line of `a4h card`, and --require-signed-card refusing an
// agent (the exit status of card errors, one line saying why) before anything is sent to it.

let fixtures: SignedAgents;
let dir: string;
let jwksFile: string;
beforeAll(async () => {
  fixtures = await startSignedAgents();
  dir = mkdtempSync(join(tmpdir(), 'a4h-trust-test-'));
  jwksFile = join(dir, 'trusted.json');
  writeFileSync(jwksFile, JSON.stringify(fixtures.trustedJwks));
});
afterAll(async () => {
  await fixtures.close();
  rmSync(dir, { recursive: true, force: true });
});

const url = (mount: string) => fixtures.agent.url(mount);
/** The `Signature:` line of `a4h card`. */
const signatureLine = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('Signature: '));

describe('a4h card: the verdict on the signature', () => {
  it('verified by <kid>, with the keys of a JWKS file', async () => {
    const { code, stdout } = await runCli(['card', url(SIGNED_MOUNTS.signed), '--trust-jwks', jwksFile]);
    expect(code).toBe(0);
    expect(signatureLine(stdout)).toBe('Signature: verified by trusted');
  });

  it('verified by <kid> with the keys of a JWKS URL, which is also allow-listed for jku', async () => {
    const { code, stdout } = await runCli(['card', url(SIGNED_MOUNTS.jku), '--trust-jwks', fixtures.jkuUrl, '--require-signed-card']);
    expect(code).toBe(0);
    expect(signatureLine(stdout)).toBe(`Signature: verified by jku (its key from ${fixtures.jkuUrl})`);
  });

  it('invalid: why (a field changed after signing), and still exit 0 without --require-signed-card', async () => {
    const { code, stdout } = await runCli(['card', url(SIGNED_MOUNTS.tampered), '--trust-jwks', jwksFile]);
    expect(code).toBe(0);
    expect(signatureLine(stdout)).toBe(
      'Signature: invalid: bad signature: the card does not match its signature by key "trusted" (changed after it was signed?)',
    );
  });

  it('unsigned; and a signed card without --trust-jwks is not checked', async () => {
    expect(signatureLine((await runCli(['card', url(SIGNED_MOUNTS.unsigned), '--trust-jwks', jwksFile])).stdout)).toBe(
      'Signature: unsigned',
    );
    expect(signatureLine((await runCli(['card', url(SIGNED_MOUNTS.signed)])).stdout)).toBe(
      'Signature: signed, not checked (no trusted keys: --trust-jwks FILE|URL)',
    );
  });

  it('a JWKS URL that fails: signed, not checked, saying why (exit 0 without --require-signed-card)', async () => {
    const { code, stdout } = await runCli(['card', url(SIGNED_MOUNTS.signed), '--trust-jwks', fixtures.brokenJwksUrl]);
    expect(code).toBe(0);
    expect(signatureLine(stdout)).toBe(
      `Signature: signed, not checked: keys unavailable: the JWKS at ${fixtures.brokenJwksUrl} could not be had: HTTP 500`,
    );
  });

  it('an expired key: invalid, saying so', async () => {
    const { stdout } = await runCli(['card', url(SIGNED_MOUNTS.expired), '--trust-jwks', jwksFile]);
    expect(signatureLine(stdout)).toMatch(/^Signature: invalid: .*expired/);
  });
});

describe('--require-signed-card', () => {
  it('card: a badly signed card is a card error, exit 1, its message saying why', async () => {
    const { code, stdout, stderr } = await runCli(['card', url(SIGNED_MOUNTS.unknown), '--trust-jwks', jwksFile, '--require-signed-card']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `Error: A2ACLI_ERR_CARD_INVALID\nMessage: a signed agent card is required for this agent (requireSignedCard): unknown key: no trusted key has the kid "unknown" (${url(SIGNED_MOUNTS.unknown)}.well-known/agent-card.json)\n`,
    );
  });

  it('send: an unsigned card stops the turn (exit 1, kind card) and the agent receives no message', async () => {
    const from = fixtures.agent.received.length;
    const { code, stdout } = await runCli([
      'send',
      url(SIGNED_MOUNTS.unsigned),
      '--json',
      '--trust-jwks',
      jwksFile,
      '--require-signed-card',
      'artifacts',
    ]);
    expect(code).toBe(1);
    expect(jsonLines(stdout).at(-1)).toMatchObject({ type: 'error', kind: 'card', message: expect.stringContaining('no signature') });
    expect(requests(fixtures.agent, SIGNED_MOUNTS.unsigned, from).calls).toEqual([]);
  });

  it('send and resume: a card signed by a trusted key goes through', async () => {
    const sent = await runCli(['send', url(SIGNED_MOUNTS.signed), '--trust-jwks', jwksFile, '--require-signed-card', 'artifacts']);
    expect({ code: sent.code, reply: blocksOf(sent.stdout) }).toEqual({ code: 0, reply: REPLY.artifacts });
    const resumed = await runCli([
      'resume',
      url(SIGNED_MOUNTS.signed),
      '--thread',
      'idle',
      '--trust-jwks',
      jwksFile,
      '--require-signed-card',
    ]);
    expect(resumed.code).toBe(0);
  });

  it('resume and chat: refused before anything is sent', async () => {
    const from = fixtures.agent.received.length;
    const resumed = await runCli(['resume', url(SIGNED_MOUNTS.tampered), '--trust-jwks', jwksFile, '--require-signed-card']);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain('bad signature');
    const chat = await runCli(['chat', url(SIGNED_MOUNTS.expired), '--trust-jwks', jwksFile, '--require-signed-card'], {
      input: 'hello\n',
    });
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain('expired key');
    expect(requests(fixtures.agent, SIGNED_MOUNTS.tampered, from).calls).toEqual([]);
    expect(requests(fixtures.agent, SIGNED_MOUNTS.expired, from).calls).toEqual([]);
  });

  it('bad usage: without --trust-jwks, or with a file that holds no JWKS (exit 2)', async () => {
    const alone = await runCli(['card', url(SIGNED_MOUNTS.signed), '--require-signed-card']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--require-signed-card needs the keys to check the card with: --trust-jwks FILE|URL');
    const missing = await runCli(['send', url(SIGNED_MOUNTS.signed), '--trust-jwks', join(dir, 'missing.json'), 'hi']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--trust-jwks: the JWKS file ${join(dir, 'missing.json')} could not be read (ENOENT)`);
    const notJwks = join(dir, 'not-jwks.json');
    writeFileSync(notJwks, '{"keys": [{"kid": "no kty"}]}');
    const bad = await runCli(['chat', url(SIGNED_MOUNTS.signed), '--trust-jwks', notJwks], { input: '' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a JWKS: its field keys.0.kty');
  });
});
