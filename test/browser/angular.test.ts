/**
 * The Angular chat example (examples/angular: an Angular 21 app on a4h-a2a/angular) built with
 * `ng build` and driven in headless Chromium against the demo agent: the card read at start, a reply
 * streamed into the `view` signal, the contextId asked of the backend inside each turn (the agent
 * keys its memory on it, so turn 2 quotes turn 1), Cancel (the agent gets CancelTask), and a page
 * reloaded: the thread's past shows (`loadEarlier()`, "Load earlier" for older pages), and a reply
 * in flight or the agent's question goes on below it (`resume()`), nothing doubled.
 *
 * Needs the example installed (`node examples/angular/setup.mjs install`, which `npm test` runs after
 * `npm run build`) and Chromium at /usr/bin/chromium. Without either it fails, saying which.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDemoAgent } from '../../demo/agent.js';
import type { DemoAgent } from '../../demo/agent.js';
import { NAME } from '../../demo/card.js';
import { answeredReply, askQuestion, chatReply, slowReply } from '../../demo/reply.js';
import { deriveContextId } from '../../src/index.js';
import type { ExampleBackend } from '../../examples/backend.mjs';
import { startAngularChatServer } from '../../examples/angular/server.mjs';
import { EXAMPLE } from '../../examples/angular/setup.mjs';
import { builtAngularExample } from './angular-build.js';
import {
  expectCanceledAtAgent,
  expectStopped,
  launchChromium,
  openPage,
  send,
  waitForMidStream,
  waitForPhase,
  openThreadPage,
  type PageErrors,
} from './kit.js';
import { linesOf, recordReplyTexts, wholeSlowReply } from './reload.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOT = join(ROOT, 'test-output', 'angular-chat.png');
/** Set A4H_UPDATE_SCREENSHOT=1 to also refresh the example README's screenshot. */
const README_SCREENSHOT = join(EXAMPLE, 'screenshot.png');
const SECRET = 'angular-chat-test-secret-not-for-production';
const THREAD = 'angular-test-thread';

let dir = '';
let agent: DemoAgent | undefined;
let server: ExampleBackend | undefined;
let browser: Browser | undefined;
let page: Page;
let buildOutput = '';
/** The demo agent's log: one line per turn, `<contextId prefix> turn N`, `… canceled`. */
const agentLog: string[] = [];
const errors = { page: [] as string[], console: [] as string[] };
let contextPrefix = '';

async function setUp(): Promise<void> {
  buildOutput = await builtAngularExample(); // this checkout's library, packed; built once with angular-interrupt.test.ts
  dir = await mkdtemp(join(tmpdir(), 'a4h-angular-test-'));
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 30, log: (line) => agentLog.push(line) });
  server = await startAngularChatServer({ port: 0, agent: agent.url, secret: SECRET });
  contextPrefix = (await deriveContextId(SECRET, 'web', THREAD)).slice(0, 8);
  browser = await launchChromium();
  page = await openPage(browser, errors);
  await page.goto(`${server.url}?thread=${THREAD}`);
}

async function tearDown(): Promise<void> {
  await browser?.close();
  await server?.close();
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** The status of a GET whose request target is sent exactly as written. */
function rawStatus(base: string, target: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

/** The current turn's bubble. */
const reply = () => page.locator('.msg.agent.latest');
const status = () => page.locator('[data-testid="status"]').textContent();
const LATEST = '.msg.agent.latest';
/**
 * A page of its own (a fresh profile) on `thread` (`query`: more of the URL's query, e.g. `&page=3`),
 * its resume and its past at start settled. Resolves with the page and the thread's contextId prefix.
 */
const threadPage = (thread: string, errors: PageErrors, query = '') =>
  openThreadPage(browser, server?.url, SECRET, thread, errors, query, 'main[data-resuming="false"][data-history="shown"]');

/** Reloads `page` and waits until the app runs again, its resume at start settled and its past shown. */
async function reloadUntilResumed(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('main[data-resuming="false"][data-history="shown"]', { timeout: 10_000 });
}

/** Sends `text` as the page's `n`-th message and waits until its reply ended. */
async function exchange(page: Page, text: string, n: number): Promise<void> {
  await send(page, text);
  await expect.poll(() => page.locator('.msg.user').count()).toBe(n);
  await waitForPhase(page, LATEST, 'ended');
}

/** What the page shows, in order: the person's bubbles, the agent's replies, their tasks (each once). */
async function shownExchanges(page: Page): Promise<{ said: string[]; replies: string[]; tasks: (string | null)[] }> {
  return {
    said: await page.locator('.msg.user').allTextContents(),
    replies: await page.locator('.msg.agent .body').allTextContents(),
    tasks: await page.locator('.msg.agent').evaluateAll((bubbles) => bubbles.map((bubble) => bubble.getAttribute('data-task-id'))),
  };
}

/** The demo agent's chat replies to `said`, the thread's first messages, in order. */
const chatReplies = (said: readonly string[]): string[] =>
  said.map((text, i) => chatReply(text, { turn: i + 1, earlier: said.slice(0, i) }));

describe('Angular chat example: ng build, then Chromium against the demo agent', { timeout: 30_000 }, () => {
  beforeAll(setUp, 240_000);
  afterAll(tearDown);

  it('builds with ng build (production, strict templates) without a warning', () => {
    expect(buildOutput).toContain('Application bundle generation complete');
    expect(buildOutput).not.toMatch(/warning/i);
    expect(existsSync(join(EXAMPLE, 'dist', 'browser', 'index.html'))).toBe(true);
  });

  it('reads the agent card at start and says Ready with its name', async () => {
    await expect.poll(status, { timeout: 10_000 }).toBe(`Ready: ${NAME}`); // the app loaded /api/config, started, read the card
    await expect.poll(() => page.locator('[data-testid="meta"]').textContent()).toContain(`thread ${THREAD}`);
    await expect.poll(() => page.locator('#cancel').isDisabled()).toBe(true);
  });

  it('streams the reply into the view signal, with the contextId the backend derived', async () => {
    await send(page, 'Hello from Angular!');
    await expect.poll(() => page.locator('.msg.user').last().textContent()).toBe('Hello from Angular!');
    await waitForMidStream(page, '.msg.agent.latest'); // running, some words in, not all
    await waitForPhase(page, '.msg.agent.latest', 'ended');
    await expect.poll(() => reply().textContent()).toContain('Hello! This is turn 1 of our conversation.');
    await expect.poll(() => reply().getAttribute('data-outcome')).toBe('completed');
    await expect.poll(status).toBe('Done');
    await expect.poll(() => page.locator('[data-testid="meta"]').textContent()).toContain(`context ${contextPrefix}`);
    expect(agentLog).toEqual([`${contextPrefix} turn 1`]); // the agent saw the backend's contextId
  });

  it('continues the thread: the next turn has the same contextId, and the first exchange stays on the page', async () => {
    await send(page, 'What did I say?');
    await expect
      .poll(() => reply().textContent(), { timeout: 10_000 })
      .toContain('This is turn 2 of our conversation; earlier you said: “Hello from Angular!”');
    await waitForPhase(page, '.msg.agent.latest', 'ended');
    await expect.poll(() => page.locator('.msg.agent').count()).toBe(2);
    expect(agentLog).toEqual([`${contextPrefix} turn 1`, `${contextPrefix} turn 2`]);
  });

  it('Cancel stops a slow turn: the agent gets CancelTask and the view ends canceled', async () => {
    await send(page, 'slow — tell me a long story');
    await page.waitForFunction(() => {
      // This turn's words (the bubble shows the previous turn until the view's first value renders).
      const text = document.querySelector('.msg.agent.latest .body')?.textContent ?? '';
      return text.startsWith('Taking it slowly') && text.trim().split(/\s+/).length >= 4;
    });
    const taskId = await reply().getAttribute('data-task-id');
    expect(taskId).toBeTruthy();
    await page.click('#cancel');
    await waitForPhase(page, '.msg.agent.latest', 'ended', 5_000);
    await expect.poll(() => reply().getAttribute('data-outcome')).toBe('canceled');
    await expect.poll(status).toBe('Canceled');
    await expect.poll(() => page.locator('#send').isEnabled()).toBe(true);
    await expect.poll(() => page.locator('#cancel').isDisabled()).toBe(true);

    await expectCanceledAtAgent(agent!.url, taskId!, agentLog, contextPrefix);

    await expectStopped(reply().locator('.body'));
    expect(agentLog).toEqual([
      `${contextPrefix} turn 1`,
      `${contextPrefix} turn 2`,
      `${contextPrefix} turn 3 (slow)`,
      `${contextPrefix} canceled`,
    ]);

    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await page.locator('#input').blur();
    await page.screenshot({ path: SCREENSHOT });
    if (process.env['A4H_UPDATE_SCREENSHOT'] === '1') await page.screenshot({ path: README_SCREENSHOT });
  });

  describe('a page reload', () => {
    const reloadErrors = { page: [] as string[], console: [] as string[] };
    const pages: Page[] = [];
    afterAll(async () => {
      await Promise.all(pages.map((opened) => opened.context().close()));
    });

    it(
      'mid-reply: resume() shows the reply going on, whole and once, completed; no CancelTask, one task',
      { timeout: 45_000 },
      async () => {
        const { page, prefix } = await threadPage(`${THREAD}-reload`, reloadErrors);
        pages.push(page);
        const said = 'slow — a story to survive a reload';
        const whole = wholeSlowReply(said);
        await send(page, said);
        await waitForMidStream(page, LATEST);
        const taskId = await page.locator(LATEST).getAttribute('data-task-id');
        const before = (await page.locator(`${LATEST} .body`).textContent()) ?? '';
        expect(taskId).toBeTruthy();
        expect(whole.startsWith(before)).toBe(true);
        const shown = await recordReplyTexts(page, LATEST);

        await reloadUntilResumed(page);
        await waitForMidStream(page, LATEST);
        await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([said]); // the message it answers (request)
        expect(await page.locator('.msg.agent').count()).toBe(1);
        expect(await page.locator(LATEST).getAttribute('data-resumed')).toBe('true');
        expect(await page.locator(LATEST).getAttribute('data-task-id')).toBe(taskId);
        expect(await page.locator('#send').isDisabled()).toBe(true);
        const resumedText = (await page.locator(`${LATEST} .body`).textContent()) ?? '';
        expect(resumedText.length).toBeGreaterThanOrEqual(before.length);
        expect(whole.startsWith(resumedText)).toBe(true);

        await waitForPhase(page, LATEST, 'ended', 20_000);
        expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
        expect(await page.locator(`${LATEST} .body`).textContent()).toBe(whole);
        expect(await page.locator(LATEST).getAttribute('data-task-id')).toBe(taskId);
        const texts = await shown.texts();
        expect(texts.at(-1)).toBe(whole);
        expect(texts.filter((text) => !whole.startsWith(text))).toEqual([]); // never a part twice
        await expect.poll(() => page.locator('[data-testid="status"]').textContent()).toBe('Done');
        await expect.poll(() => page.locator('#send').isEnabled()).toBe(true);
        expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (slow)`]); // one turn, and no cancel
      },
    );

    it('with nothing in flight (the last reply completed): the reloaded page shows the exchange from the past, no resumed one, and is ready', async () => {
      const { page } = await threadPage(`${THREAD}-nothing`, reloadErrors);
      pages.push(page);
      await send(page, 'Hello before a reload');
      await waitForPhase(page, LATEST, 'ended');
      expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
      const taskId = await page.locator(LATEST).getAttribute('data-task-id');
      await reloadUntilResumed(page);
      await expect
        .poll(() => shownExchanges(page))
        .toEqual({
          said: ['Hello before a reload'],
          replies: chatReplies(['Hello before a reload']),
          tasks: [taskId],
        });
      expect(await page.locator('.msg.agent[data-past="true"][data-outcome="completed"]').count()).toBe(1);
      expect(await page.locator(LATEST).count()).toBe(0);
      expect(await page.locator('#load-earlier').count()).toBe(0);
      await expect.poll(() => page.locator('[data-testid="status"]').textContent()).toBe(`Ready: ${NAME}`);
      expect(await page.locator('#send').isEnabled()).toBe(true);
    });

    it("the agent's question: the reloaded page shows it again, and the answer finishes that task", async () => {
      const { page, prefix } = await threadPage(`${THREAD}-ask`, reloadErrors);
      pages.push(page);
      const said = 'ask what colour the sky should be';
      await send(page, said);
      await waitForPhase(page, LATEST, 'ended');
      expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('input-required');
      const taskId = await page.locator(LATEST).getAttribute('data-task-id');
      expect(taskId).toBeTruthy();

      await reloadUntilResumed(page);
      await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([said]); // once: the resumed exchange, not the past's
      expect(await page.locator('.msg.agent').count()).toBe(1);
      expect(await page.locator(LATEST).getAttribute('data-phase')).toBe('ended');
      expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('input-required');
      expect(await page.locator(LATEST).getAttribute('data-task-id')).toBe(taskId);
      expect(await page.locator(`${LATEST} .body`).textContent()).toBe(askQuestion(said));
      expect(await page.locator('#send').isEnabled()).toBe(true);

      await send(page, 'deep blue');
      // The page drew the new turn (until then the latest bubble is the question's, ended already).
      await page.waitForFunction(() => [...document.querySelectorAll('.msg.user')].at(-1)?.textContent?.trim() === 'deep blue');
      await waitForPhase(page, LATEST, 'ended');
      expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
      expect(await page.locator(`${LATEST} .body`).textContent()).toBe(answeredReply('deep blue', { turn: 2, earlier: [said] }));
      expect(await page.locator(LATEST).getAttribute('data-task-id')).toBe(taskId);
      expect(await page.locator('.msg.user').allTextContents()).toEqual([said, 'deep blue']);
      expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (ask)`, `${prefix} turn 2 (answer)`]);
    });

    it(
      'after three exchanges: all three in order; a slow reply in flight at the next reload goes on below them, once; no CancelTask',
      { timeout: 60_000 },
      async () => {
        const { page, prefix } = await threadPage(`${THREAD}-three`, reloadErrors);
        pages.push(page);
        const said = ['first, about tea', 'second, about coffee', 'third, about cocoa'];
        for (const [i, text] of said.entries()) await exchange(page, text, i + 1);
        const { tasks } = await shownExchanges(page);

        await reloadUntilResumed(page);
        await expect.poll(() => shownExchanges(page)).toEqual({ said, replies: chatReplies(said), tasks });
        expect(new Set(tasks).size).toBe(3);
        expect(await page.locator('.msg.agent[data-past="true"][data-outcome="completed"]').count()).toBe(3);
        expect(await page.locator('#load-earlier').count()).toBe(0); // the page holds the whole thread

        const slow = 'slow — and a fourth';
        await send(page, slow);
        await waitForMidStream(page, LATEST);
        const taskId = await page.locator(LATEST).getAttribute('data-task-id');
        const reply = await recordReplyTexts(page, LATEST);
        await reloadUntilResumed(page);
        await waitForMidStream(page, LATEST);
        // The three above, then the reply in flight under its message: four exchanges, each once.
        await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([...said, slow]);
        expect(await shownExchanges(page).then((shown) => shown.tasks)).toEqual([...tasks, taskId]);
        expect(await page.locator(LATEST).getAttribute('data-resumed')).toBe('true');

        const whole = slowReply(slow, { turn: 4, earlier: said });
        await waitForPhase(page, LATEST, 'ended', 30_000);
        expect(await shownExchanges(page)).toEqual({
          said: [...said, slow],
          replies: [...chatReplies(said), whole],
          tasks: [...tasks, taskId],
        });
        expect((await reply.texts()).filter((text) => !whole.startsWith(text))).toEqual([]); // never a part twice
        expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1`, `${prefix} turn 2`, `${prefix} turn 3`, `${prefix} turn 4 (slow)`]);
      },
    );

    it('"Load earlier" (a page of 3, five exchanges): the two older ones above, in order, nothing doubled; then no more', async () => {
      const { page } = await threadPage(`${THREAD}-earlier`, reloadErrors, '&page=3');
      pages.push(page);
      const said = ['one', 'two', 'three', 'four', 'five'];
      for (const [i, text] of said.entries()) await exchange(page, text, i + 1);
      const { tasks } = await shownExchanges(page);

      await reloadUntilResumed(page);
      await expect
        .poll(() => shownExchanges(page))
        .toEqual({ said: said.slice(2), replies: chatReplies(said).slice(2), tasks: tasks.slice(2) });
      await page.click('#load-earlier');
      await expect.poll(() => page.locator('.msg.user').count()).toBe(5);
      expect(await shownExchanges(page)).toEqual({ said, replies: chatReplies(said), tasks });
      await page.waitForSelector('main[data-history="shown"]');
      expect(await page.locator('#load-earlier').count()).toBe(0);
      expect(await page.locator('#send').isEnabled()).toBe(true);
    });

    it('had no page errors and no console errors', () => {
      expect(reloadErrors.page).toEqual([]);
      expect(reloadErrors.console).toEqual([]);
    });
  });

  it('the page logged no error', () => {
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
  });

  it('the backend serves the built files by name and nothing else', async () => {
    const get = (path: string) => fetch(new URL(path, server!.url));
    expect((await get('/')).headers.get('content-type')).toContain('text/html');
    expect((await get('/api/config').then((r) => r.json())) as unknown).toEqual({ agent: agent!.url, handle: 'web' });
    // Raw request targets (fetch would normalise the dots away before sending).
    for (const path of [
      '/server.mjs',
      '/../package.json',
      '/..%2fpackage.json',
      '/.%2e/setup.mjs',
      '/%2e%2e/%2e%2e/package.json',
      '/3rdpartylicenses.txt',
      '/nope.js',
    ]) {
      expect(await rawStatus(server!.url, path), path).toBe(404);
    }
    expect(await rawStatus(server!.url, 'http://elsewhere/index.html')).toBe(400);
    expect((await get('/api/context?thread=')).status).toBe(400);
  });
});
