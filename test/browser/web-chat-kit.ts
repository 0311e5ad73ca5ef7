/**
 * The web chat tests' kit: the demo agent, the example's server and Chromium on one page (setUp, tearDown), a page of
 * its own on a thread, a reload until the page resumed, an exchange, what the page shows, the demo's chat replies.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDemoAgent } from '../../demo/agent.js';
import type { DemoAgent } from '../../demo/agent.js';
import { chatReply } from '../../demo/reply.js';
import { deriveContextId } from '../../src/index.js';
import { buildWebChat } from '../../examples/web-chat/build.mjs';
import { startWebChatServer } from '../../examples/web-chat/server.mjs';
import type { WebChatServer } from '../../examples/web-chat/server.mjs';
import { launchChromium, openPage, send, waitForPhase, openThreadPage, type PageErrors } from './kit.js';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the test saves its screenshot of the page. */
export const SCREENSHOT = join(ROOT, 'test-output', 'web-chat.png');
/** Set A4H_UPDATE_SCREENSHOT=1 to also refresh the README's screenshot. */
export const README_SCREENSHOT = join(ROOT, 'examples', 'web-chat', 'screenshot.png');
/** The example server's identity secret. */
export const SECRET = 'web-chat-test-secret-not-for-production';
/** The thread of the shared page. */
export const THREAD = 'web-chat-demo';

/** The test's folder, agent, server, browser and shared page: set by setUp. */
export let dir = '';
export let agent: DemoAgent | undefined;
export let server: WebChatServer | undefined;
export let browser: Browser | undefined;
export let page: Page;
/** The demo agent's log: one line per turn, `<contextId prefix> turn N`, `… canceled`. */
export const agentLog: string[] = [];
/** The shared page's uncaught errors and console errors. */
export const errors = { page: [] as string[], console: [] as string[] };
/** The first 8 characters of the shared thread's contextId. */
export let contextPrefix = '';

/** Builds the example and starts the demo agent, the example's server and Chromium on the shared page, ready. */
export async function setUp(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    throw new Error('dist/index.js is missing: run `npm run build` first (the web chat server imports the built library)');
  }
  dir = await mkdtemp(join(tmpdir(), 'a4h-web-chat-test-'));
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 30, log: (line) => agentLog.push(line) });
  await buildWebChat();
  server = await startWebChatServer({ port: 0, agent: agent.url, secret: SECRET });
  contextPrefix = (await deriveContextId(SECRET, 'web', THREAD)).slice(0, 8);

  browser = await launchChromium();
  page = await openPage(browser, errors);
  await page.goto(`${server.url}?thread=${THREAD}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
}

/** Closes the browser, the server and the agent; removes the folder. */
export async function tearDown(): Promise<void> {
  await browser?.close();
  await server?.close();
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** The last agent bubble. */
export const lastReply = () => page.locator('.msg.agent').last();
/** The selector of the last agent bubble. */
export const LAST_REPLY = '.msg.agent:last-of-type';

/**
 * A page of its own (a fresh profile) on `thread` (`query`: more of the URL's query, e.g. `&page=3`),
 * ready, its errors pushed to `errors`. Resolves with the page and the thread's contextId prefix.
 */
export const threadPage = (thread: string, errors: PageErrors, query = '') =>
  openThreadPage(browser, server?.url, SECRET, thread, errors, query, 'body[data-ready="true"]');

/** Reloads `page` and waits until the page is ready, its look for a reply in flight settled as `wanted`, and its past shown. */
export async function reloadUntilResumed(page: Page, wanted: string): Promise<void> {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  await page.waitForSelector(`body[data-resume="${wanted}"]`, { timeout: 10_000 });
  await page.waitForSelector('body[data-history="shown"]', { timeout: 10_000 });
}

/** Sends `text` as the page's `n`-th message and waits until its reply ended. */
export async function exchange(page: Page, text: string, n: number): Promise<void> {
  await send(page, text);
  await expect.poll(() => page.locator('.msg.user').count()).toBe(n);
  await waitForPhase(page, LAST_REPLY, 'ended');
}

/** What the page shows, in order: the person's bubbles, the agent's replies, their tasks (each once). */
export async function shownExchanges(page: Page): Promise<{ said: string[]; replies: string[]; tasks: (string | null)[] }> {
  const agents = page.locator('.msg.agent');
  return {
    said: await page.locator('.msg.user').allTextContents(),
    replies: await page.locator('.msg.agent .body').allTextContents(),
    tasks: await agents.evaluateAll((bubbles) => bubbles.map((bubble) => bubble.getAttribute('data-task-id'))),
  };
}

/** The demo agent's chat replies to `said`, the thread's first messages, in order. */
export const chatReplies = (said: readonly string[]): string[] =>
  said.map((text, i) => chatReply(text, { turn: i + 1, earlier: said.slice(0, i) }));
