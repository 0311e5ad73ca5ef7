/**
 * The React chat example (examples/react-chat: `useChat` of `@ai-sdk/react` with the transport of
 * `a4h-a2a/ai-sdk`) in a real headless Chromium against the demo agent: a streamed reply, Stop
 * cancelling at the agent, a reload mid-reply resumed under the conversation so far, and the
 * agent's question answered in its task after a reload.
 *
 * Needs Chromium at /usr/bin/chromium (Debian's `chromium` package) and the built library
 * (`npm run build`: the example's server imports dist/index.js). Without either it fails.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { answeredReply, askQuestion, chatReply, slowReply } from '../../demo/reply.js';
import { buildReactChat } from '../../examples/react-chat/build.mjs';
import { startReactChatServer, type ReactChatServer } from '../../examples/react-chat/server.mjs';
import { deriveContextId } from '../../src/index.js';
import { expectCanceledAtAgent, expectStopped, launchChromium, openPage, send, waitForMidStream, waitForPhase } from './kit.js';
import { linesOf, recordReplyTexts } from './reload.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'react-chat-test-secret-not-for-production';
const LAST_REPLY = '.msg.agent:last-of-type';

let dir = '';
let agent: DemoAgent | undefined;
let server: ReactChatServer | undefined;
let browser: Browser | undefined;
/** The demo agent's log: one line per turn, `<contextId prefix> turn N`, `… canceled`. */
const agentLog: string[] = [];
const errors = { page: [] as string[], console: [] as string[] };

/** A page of its own (a fresh profile) on `thread`, its chat shown. Resolves with the page and the thread's contextId prefix. */
async function threadPage(thread: string): Promise<{ page: Page; prefix: string }> {
  const page = await openPage(browser!, errors);
  await page.goto(`${server!.url}?thread=${thread}`);
  await page.waitForSelector('#input', { timeout: 10_000 });
  return { page, prefix: (await deriveContextId(SECRET, 'web', thread)).slice(0, 8) };
}

/** Reloads `page` and waits until its chat shows again. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('#input', { timeout: 10_000 });
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

describe('react chat example (useChat + a4h-a2a/ai-sdk) in Chromium', { timeout: 45_000 }, () => {
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build` first');
    dir = await mkdtemp(join(tmpdir(), 'a4h-react-chat-test-'));
    agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 30, log: (line) => agentLog.push(line) });
    await buildReactChat();
    server = await startReactChatServer({ port: 0, agent: agent.url, secret: SECRET });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await agent?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('streams a reply word by word, then ends it completed, with its task', async () => {
    const { page, prefix } = await threadPage('react-stream');
    await send(page, 'Hello from React!');
    await expect.poll(() => texts(page, '.msg.user')).toEqual(['Hello from React!']);
    await waitForMidStream(page, LAST_REPLY);
    await waitForPhase(page, LAST_REPLY, 'ended');
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(chatReply('Hello from React!', { turn: 1, earlier: [] }));
    expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
    expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBeTruthy();
    expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1`]); // the backend's contextId
  });

  it('Stop cancels the turn at the agent (CancelTask) and the reply stays where it stopped', async () => {
    const { page, prefix } = await threadPage('react-stop');
    await send(page, 'slow — a long story');
    await waitForMidStream(page, LAST_REPLY);
    const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
    await page.click('#cancel');
    await waitForPhase(page, LAST_REPLY, 'stopped', 5_000);
    await expectCanceledAtAgent(agent!.url, taskId!, agentLog, prefix);
    await expectStopped(page.locator(`${LAST_REPLY} .body`));
    expect(await page.locator('#send').isEnabled()).toBe(true);
  });

  it('a reload mid-reply: the conversation so far above, the reply going on below it, once; no CancelTask', async () => {
    const { page, prefix } = await threadPage('react-reload');
    await send(page, 'Hello first');
    await waitForPhase(page, LAST_REPLY, 'ended');
    const first = (await page.locator(`${LAST_REPLY} .body`).textContent()) ?? '';
    const said = 'slow — a story to survive a reload';
    await send(page, said);
    await waitForMidStream(page, LAST_REPLY);
    const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
    const shown = await recordReplyTexts(page, LAST_REPLY);

    await reload(page);
    await waitForMidStream(page, LAST_REPLY);
    expect(await texts(page, '.msg.user')).toEqual(['Hello first', said]);
    expect(await texts(page, '.msg.agent .body').then((bodies) => bodies[0])).toBe(first);
    expect(await page.locator('.msg.agent').count()).toBe(2);
    expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);

    const whole = slowReply(said, { turn: 2, earlier: ['Hello first'] });
    await waitForPhase(page, LAST_REPLY, 'ended', 20_000);
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(whole);
    expect(await page.locator('.msg').count()).toBe(4);
    const seen = await shown.texts();
    expect(seen.at(-1)).toBe(whole);
    expect(seen.filter((text) => !whole.startsWith(text))).toEqual([]); // never a part twice
    expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1`, `${prefix} turn 2 (slow)`]); // one task, no cancel
  });

  it("the agent's question, after a reload: shown again from the history, and answered in its task", async () => {
    const { page, prefix } = await threadPage('react-ask');
    const said = 'ask what colour the sky should be';
    await send(page, said);
    await waitForPhase(page, LAST_REPLY, 'ended');
    expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('input-required');
    const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');

    await reload(page);
    await expect.poll(() => page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('input-required');
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(askQuestion(said));
    expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
    await expect.poll(() => page.locator('#send').isEnabled()).toBe(true);

    await send(page, 'deep blue');
    await waitForPhase(page, LAST_REPLY, 'ended');
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(answeredReply('deep blue', { turn: 2, earlier: [said] }));
    expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
    expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
    expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (ask)`, `${prefix} turn 2 (answer)`]);
  });

  it('had no page errors and no console errors', () => {
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
  });
});
