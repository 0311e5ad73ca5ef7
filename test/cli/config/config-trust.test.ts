/**
 * Settings that steer secrets come only from the person: a `.env` another user owns, or others may
 * write, is not read (not even a 0600 one); the walk for the local `.env` stops at the project's root,
 * the home folder and before a folder the person does not own; a file that supplied a credential
 * setting is named on stderr. The attacks of issue #45: a hostile `.env` in a shared parent folder
 * that sends an environment variable of the victim's to a token URL of its own. The cases that need a
 * file of another user run as root (as CI does), which can give one away with chown.
 */
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { REPLY } from '../../../fixtures/index.js';
import { runCli } from '../run-cli.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const VICTIM = 'ghp_victim-token-3c2b1a0f9e8d7c6b';

let agents: AuthAgents;
let attacker: Server;
let attackerUrl: string;
const stolen: string[] = [];
let root: string;
let home: string;

beforeAll(async () => {
  agents = await startAuthAgents();
  attacker = createServer((req, res) => {
    stolen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"x","token_type":"Bearer"}');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const address = attacker.address();
  attackerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/token`;
});
afterAll(async () => {
  await agents?.close();
  await new Promise((resolve) => attacker?.close(resolve));
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'a4h-config-trust-'));
  home = join(root, 'home');
  mkdirSync(home);
  return () => rmSync(root, { recursive: true, force: true });
});

const env = () => ({ HOME: home, XDG_CONFIG_HOME: join(root, 'xdg'), VICTIM_GITHUB_TOKEN: VICTIM });
const write = (path: string, text: string, mode = 0o600, owner?: number) => {
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
  if (owner !== undefined) chownSync(path, owner, owner);
};
const hostile = () =>
  [
    'A2ACLI_OAUTH_CLIENT_ID=x',
    'A2ACLI_OAUTH_CLIENT_SECRET_ENV=VICTIM_GITHUB_TOKEN',
    `A2ACLI_OAUTH_TOKEN_URL=${attackerUrl}`,
    `A2ACLI_BEARER=${AUTH_SECRETS.bearer}`,
    '',
  ].join('\n');

describe('a .env nobody vouched for steers nothing', { timeout: 60_000 }, () => {
  it.skipIf(!asRoot)("another user's .env two folders up, in a folder they own: not read, and said so", async () => {
    const shared = join(root, 'shared');
    const cwd = join(shared, 'me', 'work');
    mkdirSync(cwd, { recursive: true });
    chownSync(shared, NOBODY, NOBODY);
    write(join(shared, '.env'), hostile(), 0o644, NOBODY);
    const from = stolen.length;
    const { code, stdout, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'hello'], { env: env(), cwd });
    expect(stolen.slice(from)).toEqual([]);
    expect(stderr).toContain(`${join(shared, '.env')} is not read`);
    expect(stderr).toContain(`${shared} is a folder you do not own`);
    expect(code).toBe(4); // the bearer agent refuses a message sent without the file's credentials
    expect(stdout + stderr).not.toContain(VICTIM);
  });

  it.skipIf(!asRoot)("another user's 0600 .env in the working folder: not read (its bearer token is theirs)", async () => {
    const cwd = join(root, 'work');
    mkdirSync(cwd);
    write(join(cwd, '.env'), hostile(), 0o600, NOBODY);
    const from = stolen.length;
    const { code, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd });
    expect(stolen.slice(from)).toEqual([]);
    expect(stderr).toContain(`${join(cwd, '.env')} is not read: it is owned by another user (uid ${NOBODY}), not by you (uid 0)`);
    expect(code).toBe(4);
  });

  it.skipIf(!asRoot)("--config FILE of another user's: bad usage, nothing sent", async () => {
    const file = join(root, 'theirs.env');
    write(file, hostile(), 0o644, NOBODY);
    const from = stolen.length;
    const { code, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), '--config', file, 'hello'], {
      env: env(),
      cwd: root,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`the configuration file ${file} is not read: it is owned by another user`);
    expect(stolen.slice(from)).toEqual([]);
  });

  it.skipIf(!asRoot)(
    'a link another user put in a folder of yours others may write, to your settings for another agent: not read',
    async () => {
      // The file is the person's own (0600, another agent's bearer token); the link to it is not.
      const agentsDir = join(root, 'xdg', 'a4h', 'agents');
      mkdirSync(agentsDir, { recursive: true, mode: 0o700 });
      const bank = join(agentsDir, 'bank.example.com.env');
      write(bank, `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\n`);
      const cwd = join(root, 'shared-project');
      mkdirSync(join(cwd, '.git'), { recursive: true });
      chmodSync(cwd, 0o777);
      symlinkSync(bank, join(cwd, '.env'));
      lchownSync(join(cwd, '.env'), NOBODY, NOBODY);
      const { code, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd });
      expect(stderr).toContain(`${join(cwd, '.env')} is not read: it is a link another user made (uid ${NOBODY}), not you (uid 0)`);
      expect(code).toBe(4); // the bearer agent refuses a message sent without the other agent's token
      // A link of the person's own to a file of theirs is read as before.
      rmSync(join(cwd, '.env'));
      symlinkSync(bank, join(cwd, '.env'));
      const own = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd });
      expect(own.stdout).toContain(REPLY.artifacts);
      expect(own.code).toBe(0);
    },
  );

  it('a .env of yours that others may write: not read', async () => {
    const cwd = join(root, 'work');
    mkdirSync(cwd);
    write(join(cwd, '.env'), hostile(), 0o620);
    const from = stolen.length;
    const { code, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'hello'], { env: env(), cwd });
    expect(stolen.slice(from)).toEqual([]);
    expect(stderr).toContain(`${join(cwd, '.env')} is not read: others can write it (mode 0620)`);
    expect(code).toBe(4);
  });

  it("a .env above the project's root (the folder holding .git): not read, and said so; one inside it is", async () => {
    const project = join(root, 'project');
    const cwd = join(project, 'src');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(cwd);
    write(join(root, '.env'), hostile());
    const from = stolen.length;
    const above = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'hello'], { env: env(), cwd });
    expect(stolen.slice(from)).toEqual([]);
    expect(above.stderr).toContain(`${join(root, '.env')} is not read`);
    expect(above.stderr).toContain(`the project's root is ${project} (it holds .git)`);
    expect(above.code).toBe(4);
    write(join(project, '.env'), `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\n`);
    const inside = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd });
    expect(inside.stdout).toContain(REPLY.artifacts);
    expect(inside.code).toBe(0);
  });

  it("a project's own .env (a clone's): never says where a secret goes or which variable holds one", async () => {
    const project = join(root, 'cloned');
    mkdirSync(join(project, '.git'), { recursive: true });
    write(join(project, '.env'), hostile());
    const from = stolen.length;
    const { code, stdout, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd: project });
    expect(stolen.slice(from)).toEqual([]);
    for (const key of ['A2ACLI_OAUTH_CLIENT_SECRET_ENV', 'A2ACLI_OAUTH_TOKEN_URL']) {
      expect(stderr).toContain(`${join(project, '.env')}: ${key} is ignored in a .env found in your folders`);
    }
    expect(stdout + stderr).not.toContain(VICTIM);
    // What it may still give is named: here the bearer token, which goes to the agent it was meant for.
    expect(stderr).toContain(`a4h: A2ACLI_BEARER, A2ACLI_OAUTH_CLIENT_ID from ${join(project, '.env')}`);
    expect(code).toBe(2); // an OAuth client id with no secret variable: bad usage, nothing sent
  });

  it('a file that supplies a credential setting is named on stderr, with the variables, never the values', async () => {
    const cwd = join(root, 'work');
    mkdirSync(cwd);
    write(join(cwd, '.env'), `A2ACLI_BEARER=${AUTH_SECRETS.bearer}\nA2ACLI_INSECURE=false\n`);
    const { code, stdout, stderr } = await runCli(['send', agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'], { env: env(), cwd });
    expect(stdout).toContain(REPLY.artifacts);
    expect(code).toBe(0);
    expect(stderr.split('\n')).toContain(`a4h: A2ACLI_BEARER from ${join(cwd, '.env')}`);
    expect(stderr).not.toContain('A2ACLI_INSECURE');
    expect(stderr).not.toContain(AUTH_SECRETS.bearer);
  });
});
