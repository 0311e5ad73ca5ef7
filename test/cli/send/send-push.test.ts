/**
 * `a4h send --push-url URL`: the message asks the agent to post the task's updates to a receiver run
 * elsewhere, with a credential derived from A4H_IDENTITY_SECRET. Against real SDK agents that push with
 * their own senders (fixtures/agent-push.ts: @a2a-js/sdk 1.3 over v1.0, 0.3.14 over v0.3), the receiver
 * here the library's own (`createPushReceiver` + `pushHandler`) with the test's secret: every post is
 * checked by it, so a post it takes carries the credential the command derived.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_MOUNTS, startPushAgents, type PushAgents } from '../../../fixtures/agent-push.js';
import { createPushReceiver, type AgentEvent, type PushReceiver } from '../../../src/index.js';
import { pushHandler } from '../../../src/node/index.js';
import { useAgent } from '../../agent-rig.js';
import { eventually } from '../../eventually.js';
import { runCliWithin, SECRET } from '../run-cli.js';

const runCli = runCliWithin(60_000);
let agents: PushAgents;
useAgent(
  () => startPushAgents({ long: { chunks: 6, delayMs: 150 } }),
  (a) => (agents = a),
);

/** The receiver on loopback, and every checked push it took, by contextId (none followed: all unclaimed). */
let server: Server;
let receiver: PushReceiver;
let url: string;
const taken: { contextId: string; taskId: string; event: AgentEvent }[] = [];
beforeAll(async () => {
  server = createServer((request, response) => pushHandler(receiver)(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
  receiver = createPushReceiver({ url, secret: SECRET, onUnclaimed: (push) => taken.push(push) });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const field = (stdout: string, label: string): string | undefined => new RegExp(`^${label}: (.*)$`, 'm').exec(stdout)?.[1];
const stateOf = (event: AgentEvent): string | undefined =>
  event.kind === 'task' ? event.task.status.state : event.kind === 'status' ? event.status.state : undefined;

describe('a4h send --push-url', () => {
  it.each([
    ['v1.0, @a2a-js/sdk 1.3 (its StreamResponses)', PUSH_MOUNTS.v1, []],
    ['v0.3, sdk 0.3.14 (the whole task, its token header)', PUSH_MOUNTS.v03, ['--a2a-version', '0.3']],
  ])('%s: --async returns, and the agent posts the task to the URL until it completes, each post checked', async (_, mount, flags) => {
    const contextId = `ctx-push-${Math.random()}`;
    const args = ['send', agents.url(mount), '--push-url', url, '--context-id', contextId, '--async', ...flags, 'long 6 150'];
    const { code, stdout, stderr } = await runCli(args);
    expect(code, stderr).toBe(0);
    const taskId = field(stdout, 'Task ID')!;
    expect(field(stdout, 'Context ID')).toBe(contextId);
    const mine = () => taken.filter((push) => push.taskId === taskId);
    await eventually(() => mine().some((push) => stateOf(push.event) === 'completed'), 30_000);
    expect(mine().every((push) => push.contextId === contextId)).toBe(true);
    expect(receiver.stats().outcomes['bad-credential'] ?? 0).toBe(0);
    // Every post the agent made for the task reached the receiver and was taken (none refused).
    const posts = agents.pushes.filter((push) => push.taskId === taskId);
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((push) => push.ok)).toBe(true);
  });

  it('no --context-id: the message names a new conversation, the one its Context ID says and the credential names', async () => {
    const { code, stdout } = await runCli(['send', agents.url(PUSH_MOUNTS.v1), '--push-url', url, '--async', 'long 2 50']);
    expect(code).toBe(0);
    const [taskId, contextId] = [field(stdout, 'Task ID')!, field(stdout, 'Context ID')!];
    expect(contextId).toMatch(/^[0-9a-f-]{36}$/);
    await eventually(() => taken.some((push) => push.taskId === taskId && stateOf(push.event) === 'completed'), 30_000);
    expect(taken.filter((push) => push.taskId === taskId).every((push) => push.contextId === contextId)).toBe(true);
  });

  it('without A4H_IDENTITY_SECRET, or with a URL that is not http(s): a usage error, nothing sent', async () => {
    const from = agents.received.length;
    const bare = await runCli(['send', agents.url(PUSH_MOUNTS.v1), '--push-url', url, 'hi'], { env: { A4H_IDENTITY_SECRET: undefined } });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Message: --push-url signs the push credential with A4H_IDENTITY_SECRET, which is not set');
    const ftp = await runCli(['send', agents.url(PUSH_MOUNTS.v1), '--push-url', 'ftp://127.0.0.1/', 'hi']);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain('Message: --push-url takes the http(s) URL the agent posts to, not "ftp://127.0.0.1/"');
    expect(agents.received.length).toBe(from);
  });

  it('--help says it', async () => {
    const { stdout } = await runCli(['send', '--help']);
    expect(stdout).toContain('[--push-url URL]');
    expect(stdout).toContain("Push notifications: --push-url URL asks the agent to post the task's updates to URL");
  });
});
