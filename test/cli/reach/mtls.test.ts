/**
 * `--cert`, `--key`, `--key-pass-env` and `--cacert` (as curl spells them) against an SDK agent behind
 * an HTTPS server that requires a client certificate (made with openssl at test time): a turn and a
 * card with them; without a certificate, exit 5 and one line saying the agent asks for one; usage
 * mistakes exit 2 naming the flag; no output ever shows key material.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTlsAgent, type TlsAgent } from '../../../fixtures/agent-mtls.js';
import { REPLY } from '../../../fixtures/index.js';
import { makeCertificates, writePemFiles, type TestCertificates } from '../../../fixtures/tls-certs.js';
import { blocksOf, runCli, type CliResult } from '../run-cli.js';

let certs: TestCertificates;
let agent: TlsAgent;
let files: ReturnType<typeof writePemFiles>;

beforeAll(async () => {
  certs = makeCertificates();
  agent = await startTlsAgent(certs, 'require');
  files = writePemFiles({
    'client.crt': certs.client.cert,
    'client.key': certs.client.key,
    'client.pem': `${certs.client.cert}${certs.client.key}`,
    'encrypted.crt': certs.encrypted.cert,
    'encrypted.key': certs.encrypted.key,
    'ca.crt': certs.ca,
  });
});
afterAll(async () => {
  files?.remove();
  await agent?.close();
});

/** No output shows a key, a passphrase or a line of a key's PEM body. */
function showsNoKey({ stdout, stderr }: CliResult): void {
  const output = `${stdout}\n${stderr}`;
  expect(output).not.toContain('PRIVATE KEY');
  expect(output).not.toContain(certs.passphrase);
  for (const key of [certs.client.key, certs.encrypted.key]) {
    for (const line of key.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'))) expect(output).not.toContain(line);
  }
}

describe('a4h with a client certificate', () => {
  it('send --cert --key --cacert: the reply, the certificate presented on every request', async () => {
    const from = agent.offered.length;
    const flags = ['--cert', files.path('client.crt'), '--key', files.path('client.key'), '--cacert', files.path('ca.crt')];
    const result = await runCli(['send', agent.url('/'), ...flags, 'artifacts']);
    expect(blocksOf(result.stdout)).toBe(REPLY.artifacts);
    expect(result.code).toBe(0);
    expect(agent.offered.length - from).toBeGreaterThanOrEqual(2);
    expect(new Set(agent.offered.slice(from))).toEqual(new Set(['client-a']));
    showsNoKey(result);
  });

  it('conformance --cert --key --cacert: the checks reach the agent with the certificate (it was dropped before)', async () => {
    const flags = ['--cert', files.path('client.crt'), '--key', files.path('client.key'), '--cacert', files.path('ca.crt')];
    const result = await runCli(['conformance', agent.url('/'), ...flags, '-o', 'json']);
    const report = JSON.parse(result.stdout) as { checks: Array<{ name: string; status: string; detail: string }>; fail: number };
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('card with one file holding the certificate and its key', async () => {
    const result = await runCli(['card', agent.url('/'), '--cert', files.path('client.pem'), '--cacert', files.path('ca.crt')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Transport: JSONRPC$/m);
    showsNoKey(result);
  });

  it('an encrypted key: --key-pass-env names the variable holding its passphrase', async () => {
    const from = agent.offered.length;
    const flags = ['--cert', files.path('encrypted.crt'), '--key', files.path('encrypted.key'), '--cacert', files.path('ca.crt')];
    const result = await runCli(['send', agent.url('/'), ...flags, '--key-pass-env', 'A4H_TEST_PASS', 'status'], {
      env: { A4H_TEST_PASS: certs.passphrase },
    });
    expect(blocksOf(result.stdout)).toBe(REPLY.status);
    expect(result.code).toBe(0);
    expect(new Set(agent.offered.slice(from))).toEqual(new Set(['client-b']));
    showsNoKey(result);
  });

  it('without a certificate: exit 4, one line saying the agent asks for one (and nothing more with --verbose of a key)', async () => {
    const result = await runCli(['send', agent.url('/'), '--cacert', files.path('ca.crt'), '--verbose', 'artifacts']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('the agent refused the TLS handshake: it asks for a client certificate (mutual TLS) and none was sent');
    const plain = await runCli(['card', agent.url('/'), '--cacert', files.path('ca.crt')]);
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/^Message: .*client certificate/m);
    expect(plain.stderr).not.toMatch(/Caused By/);
  });

  it('a wrong passphrase: an error that shows neither the key nor the passphrase', async () => {
    const flags = ['--cert', files.path('encrypted.crt'), '--key', files.path('encrypted.key'), '--key-pass-env', 'A4H_TEST_PASS'];
    const result = await runCli(['send', agent.url('/'), ...flags, 'status'], { env: { A4H_TEST_PASS: 'not-the-passphrase-5b2d' } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/cannot be used/);
    expect(result.stderr).not.toContain('not-the-passphrase-5b2d');
    showsNoKey(result);
  });

  const USAGE_MISTAKES: Array<[string, () => string[], RegExp]> = [
    ['--key alone', () => ['--key', files.path('client.key')], /--key needs the certificate it is the key of: --cert FILE/],
    [
      'an unreadable file',
      () => ['--cert', files.path('missing.crt'), '--key', files.path('client.key')],
      /--cert .*missing\.crt: cannot read it \(ENOENT\)/,
    ],
    [
      'an encrypted key without --key-pass-env',
      () => ['--cert', files.path('encrypted.crt'), '--key', files.path('encrypted.key')],
      /the key of --key is encrypted: give its passphrase with --key-pass-env VAR/,
    ],
    ['a key-less --cert', () => ['--cert', files.path('client.crt')], /--cert .*client\.crt holds no private key: give it with --key FILE/],
  ];
  it.each(USAGE_MISTAKES)('usage mistake, exit 2 naming the flag: %s', async (_name, flags, message) => {
    const result = await runCli(['send', agent.url('/'), ...flags(), 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    showsNoKey(result);
  });

  it('usage mistake, exit 2: --cacert for an http:// agent', async () => {
    const http = await runCli(['card', 'http://127.0.0.1:9/', '--cacert', files.path('ca.crt')]);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--cert, --key and --cacert are for an https:// agent');
  });
});
