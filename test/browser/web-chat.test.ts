/**
 * The web chat example (examples/web-chat) in a real headless Chromium against the demo agent:
 * the library bundled for the browser streams a reply, decodes a raw-bytes file part (the SDK's
 * `Buffer` path, with the polyfill; without it the same reply fails) and draws the demo's chart,
 * sends a file the agent echoes back as a download link, cancels a running turn
 * (unsubscribe → CancelTask), and after a page reload shows the thread's past (read from the agent,
 * "Load earlier" for older pages) and picks a reply in progress (or the agent's question) up again
 * below it, nothing doubled. Also the page's tiny signals, in Node.
 *
 * Needs Chromium at /usr/bin/chromium (Debian's `chromium` package; CI installs it) and the built
 * library (`npm run build`: the example's server imports dist/index.js). Without either it fails.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDemoAgent } from '../../demo/agent.js';
import type { DemoAgent } from '../../demo/agent.js';
import { answeredReply, askQuestion, chatReply, slowReply } from '../../demo/reply.js';
import { deriveContextId } from '../../src/index.js';
import { buildWebChat } from '../../examples/web-chat/build.mjs';
import { startWebChatServer } from '../../examples/web-chat/server.mjs';
import { computed, effect, signal } from '../../examples/web-chat/src/signals.js';
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { writeFile } from 'node:fs/promises';
import { endWith, interval, map, of, startWith, take } from 'rxjs';
import { createA2A, type A2AClient, type TurnView } from '../../src/index.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import type { WebChatServer } from '../../examples/web-chat/server.mjs';
import { expectCanceledAtAgent, expectStopped, launchChromium, openPage, send, waitForMidStream, waitForPhase } from './kit.js';
import { linesOf, recordReplyTexts, wholeSlowReply } from './reload.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCREENSHOT = join(ROOT, 'test-output', 'web-chat.png');
/** Set A4H_UPDATE_SCREENSHOT=1 to also refresh the README's screenshot. */
const README_SCREENSHOT = join(ROOT, 'examples', 'web-chat', 'screenshot.png');
const SECRET = 'web-chat-test-secret-not-for-production';
const THREAD = 'web-chat-demo';

let dir = '';
let agent: DemoAgent | undefined;
let server: WebChatServer | undefined;
let browser: Browser | undefined;
let page: Page;
/** The demo agent's log: one line per turn, `<contextId prefix> turn N`, `… canceled`. */
const agentLog: string[] = [];
const errors = { page: [] as string[], console: [] as string[] };
let contextPrefix = '';

async function setUp(): Promise<void> {
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

async function tearDown(): Promise<void> {
  await browser?.close();
  await server?.close();
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** The last agent bubble. */
const lastReply = () => page.locator('.msg.agent').last();
const LAST_REPLY = '.msg.agent:last-of-type';

/**
 * A page of its own (a fresh profile) on `thread` (`query`: more of the URL's query, e.g. `&page=3`),
 * ready, its errors pushed to `errors`. Resolves with the page and the thread's contextId prefix.
 */
async function threadPage(
  thread: string,
  errors: { page: string[]; console: string[] },
  query = '',
): Promise<{ page: Page; prefix: string }> {
  if (browser === undefined || server === undefined) throw new Error('the browser or the server did not start');
  const own = await openPage(browser, errors);
  await own.goto(`${server.url}?thread=${thread}${query}`);
  await own.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return { page: own, prefix: (await deriveContextId(SECRET, 'web', thread)).slice(0, 8) };
}

/** Reloads `page` and waits until the page is ready, its look for a reply in flight settled as `wanted`, and its past shown. */
async function reloadUntilResumed(page: Page, wanted: string): Promise<void> {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  await page.waitForSelector(`body[data-resume="${wanted}"]`, { timeout: 10_000 });
  await page.waitForSelector('body[data-history="shown"]', { timeout: 10_000 });
}

/** Sends `text` as the page's `n`-th message and waits until its reply ended. */
async function exchange(page: Page, text: string, n: number): Promise<void> {
  await send(page, text);
  await expect.poll(() => page.locator('.msg.user').count()).toBe(n);
  await waitForPhase(page, LAST_REPLY, 'ended');
}

/** What the page shows, in order: the person's bubbles, the agent's replies, their tasks (each once). */
async function shownExchanges(page: Page): Promise<{ said: string[]; replies: string[]; tasks: (string | null)[] }> {
  const agents = page.locator('.msg.agent');
  return {
    said: await page.locator('.msg.user').allTextContents(),
    replies: await page.locator('.msg.agent .body').allTextContents(),
    tasks: await agents.evaluateAll((bubbles) => bubbles.map((bubble) => bubble.getAttribute('data-task-id'))),
  };
}

/** The demo agent's chat replies to `said`, the thread's first messages, in order. */
const chatReplies = (said: readonly string[]): string[] =>
  said.map((text, i) => chatReply(text, { turn: i + 1, earlier: said.slice(0, i) }));

describe('web chat example in Chromium', { timeout: 30_000 }, () => {
  beforeAll(setUp, 60_000);
  afterAll(tearDown);

  it('shows where it talks: the agent and the contextId from the backend', async () => {
    await expect.poll(() => page.locator('#meta').textContent()).toContain(`thread ${THREAD}`);
    await expect.poll(() => page.locator('#meta').textContent()).toContain(`context ${contextPrefix}`);
    await expect.poll(() => page.locator('#status-text').textContent()).toBe('Ready');
    await expect.poll(() => page.locator('#cancel').isDisabled()).toBe(true);
  });

  it('streams the reply word by word into the page', async () => {
    await send(page, 'Hello from the browser!');
    await expect.poll(() => page.locator('.msg.user').last().textContent()).toBe('Hello from the browser!');
    await waitForMidStream(page, '.msg.agent:last-of-type'); // running, some words in, not all
    await waitForPhase(page, '.msg.agent:last-of-type', 'ended');
    await expect.poll(() => lastReply().textContent()).toContain('Hello! This is turn 1 of our conversation.');
    await expect.poll(() => lastReply().getAttribute('data-outcome')).toBe('completed');
    await expect.poll(() => page.locator('#status-text').textContent()).toBe('Ready');
    expect(agentLog).toContain(`${contextPrefix} turn 1`); // the page used the backend's contextId
  });

  it('decodes a reply with a raw-bytes file part (the SDK needs Buffer: the polyfill provides it) and draws the picture', async () => {
    expect(await page.evaluate(() => typeof (globalThis as { Buffer?: unknown }).Buffer)).toBe('function');
    await send(page, 'attach the picture, please');
    await waitForPhase(page, '.msg.agent:last-of-type', 'ended');
    await expect.poll(() => lastReply().textContent()).toContain('Here is a small chart for you: a4h-chart.png');
    const img = lastReply().locator('.attachments img');
    await expect.poll(() => img.count()).toBe(1);
    expect(await img.getAttribute('alt')).toBe('a4h-chart.png');
    // Drawn: decoded at its size, and painted with more than the white background.
    const drawn = await img.evaluate(async (element: HTMLImageElement) => {
      await element.decode();
      const canvas = document.createElement('canvas');
      canvas.width = element.naturalWidth;
      canvas.height = element.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(element, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let coloured = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] !== 255 || data[i + 1] !== 255 || data[i + 2] !== 255) coloured++;
      return { width: element.naturalWidth, height: element.naturalHeight, coloured };
    });
    expect(drawn).toMatchObject({ width: 160, height: 100 });
    expect(drawn.coloured).toBeGreaterThan(1_000);
    await expect
      .poll(() => lastReply().textContent())
      .toContain('This is turn 2 of our conversation; earlier you said: “Hello from the browser!”');
    await expect.poll(() => lastReply().getAttribute('data-outcome')).toBe('completed');
    await expect.poll(() => lastReply().locator('.note').textContent()).toBe('');
    expect(agentLog).toContain(`${contextPrefix} turn 2 (attach)`);
  });

  it('Cancel stops a slow turn: the agent gets CancelTask and the page shows it stopped', async () => {
    await send(page, 'slow — tell me a long story');
    await page.waitForFunction(() => {
      const text = document.querySelector('.msg.agent:last-of-type .body')?.textContent ?? '';
      return text.trim().split(/\s+/).length >= 4;
    });
    const taskId = await lastReply().getAttribute('data-task-id');
    expect(taskId).toBeTruthy();
    await page.click('#cancel');
    await waitForPhase(page, '.msg.agent:last-of-type', 'stopped', 5_000);
    await expect.poll(() => lastReply().locator('.note').textContent()).toBe('Cancelled by you.');
    await expect.poll(() => page.locator('#status-text').textContent()).toContain('Stopped');
    await expect.poll(() => page.locator('#send').isEnabled()).toBe(true);
    await expect.poll(() => page.locator('#cancel').isDisabled()).toBe(true);

    await expectCanceledAtAgent(agent!.url, taskId!, agentLog, contextPrefix);

    await expectStopped(lastReply().locator('.body'));
    expect(agentLog).toEqual([
      `${contextPrefix} turn 1`,
      `${contextPrefix} turn 2 (attach)`,
      `${contextPrefix} turn 3 (slow)`,
      `${contextPrefix} canceled`,
    ]);

    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await page.locator('#input').blur();
    await page.screenshot({ path: SCREENSHOT });
    if (process.env['A4H_UPDATE_SCREENSHOT'] === '1') await page.screenshot({ path: README_SCREENSHOT });
  });

  it('sends a file the user picked; echo brings it back as a download link', async () => {
    const content = 'a,b\n1,2\n';
    await page.setInputFiles('#file', { name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(content) });
    await expect.poll(() => page.locator('#file-names').textContent()).toContain('numbers.csv');
    await send(page, 'echo this file');
    await expect.poll(() => page.locator('.msg.user').last().textContent()).toContain('attached: numbers.csv');
    await waitForPhase(page, '.msg.agent:last-of-type', 'ended');
    await expect.poll(() => lastReply().textContent()).toContain('Echoing numbers.csv back to you');
    const link = lastReply().locator('.attachments a[download="numbers.csv"]');
    await expect.poll(() => link.count()).toBe(1);
    const back = await link.evaluate(async (a: HTMLAnchorElement) => (await fetch(a.href)).text());
    expect(back).toBe(content);
    expect(agentLog).toContain(`${contextPrefix} turn 4 (echo)`);
  });

  it('had no page errors and no console errors', () => {
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
  });

  it('without the polyfill the same reply fails on Buffer (so the attach turn does take that path)', async () => {
    const bare = await page.context().newPage();
    try {
      await bare.goto(`${server!.url}?thread=${THREAD}-bare`);
      await bare.waitForSelector('body[data-ready="true"]');
      await bare.evaluate(() => delete (globalThis as { Buffer?: unknown }).Buffer);
      await bare.fill('#input', 'attach again');
      await bare.click('#send');
      await bare.waitForSelector('.msg.agent[data-phase="error"]', { timeout: 10_000 });
      expect(await bare.locator('.msg.agent .note').textContent()).toMatch(/Buffer/);
      expect(await bare.locator('#status-text').textContent()).toMatch(/^Error: .*Buffer/);
    } finally {
      await bare.close();
    }
  });

  describe('a page reload', () => {
    const reloadErrors = { page: [] as string[], console: [] as string[] };
    const pages: Page[] = [];
    afterAll(async () => {
      await Promise.all(pages.map((opened) => opened.context().close()));
    });

    it(
      'mid-reply: the reloaded page resumes the reply and shows it whole, once, completed; no CancelTask, one task',
      { timeout: 45_000 },
      async () => {
        const { page, prefix } = await threadPage(`${THREAD}-reload`, reloadErrors);
        pages.push(page);
        const said = 'slow — a story to survive a reload';
        const whole = wholeSlowReply(said);
        await send(page, said);
        await waitForMidStream(page, LAST_REPLY);
        const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
        const before = (await page.locator(`${LAST_REPLY} .body`).textContent()) ?? '';
        expect(taskId).toBeTruthy();
        expect(whole.startsWith(before)).toBe(true);
        const shown = await recordReplyTexts(page, LAST_REPLY);

        await reloadUntilResumed(page, 'found');
        // The reply in progress, as one resumed exchange under the message it answers: what was said already, then the rest live.
        await waitForMidStream(page, LAST_REPLY);
        await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([said]);
        expect(await page.locator('.msg.agent').count()).toBe(1);
        expect(await page.locator(LAST_REPLY).getAttribute('data-resumed')).toBe('true');
        expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
        expect(await page.locator('#send').isDisabled()).toBe(true);
        const resumedText = (await page.locator(`${LAST_REPLY} .body`).textContent()) ?? '';
        expect(resumedText.length).toBeGreaterThanOrEqual(before.length);
        expect(whole.startsWith(resumedText)).toBe(true);

        await waitForPhase(page, LAST_REPLY, 'ended', 20_000);
        expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
        expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(whole);
        expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
        const texts = await shown.texts();
        expect(texts.at(-1)).toBe(whole);
        expect(texts.filter((text) => !whole.startsWith(text))).toEqual([]); // never a part twice
        await expect.poll(() => page.locator('#status-text').textContent()).toBe('Ready');
        await expect.poll(() => page.locator('#send').isEnabled()).toBe(true);
        expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (slow)`]); // one turn, and no cancel
      },
    );

    it('with nothing in flight (the last reply completed): the reloaded page shows the exchange from the past, no resumed one, and is ready', async () => {
      const { page } = await threadPage(`${THREAD}-nothing`, reloadErrors);
      pages.push(page);
      await send(page, 'Hello before a reload');
      await waitForPhase(page, LAST_REPLY, 'ended');
      expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
      const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
      await reloadUntilResumed(page, 'none');
      await expect
        .poll(() => shownExchanges(page))
        .toEqual({
          said: ['Hello before a reload'],
          replies: chatReplies(['Hello before a reload']),
          tasks: [taskId],
        });
      expect(await page.locator(LAST_REPLY).getAttribute('data-past')).toBe('true');
      expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
      expect(await page.locator('#load-earlier').isHidden()).toBe(true);
      await expect.poll(() => page.locator('#status-text').textContent()).toBe('Ready');
      expect(await page.locator('#send').isEnabled()).toBe(true);
    });

    it("the agent's question: the reloaded page shows it again, and the answer finishes that task", async () => {
      const { page, prefix } = await threadPage(`${THREAD}-ask`, reloadErrors);
      pages.push(page);
      const said = 'ask what colour the sky should be';
      await send(page, said);
      await waitForPhase(page, LAST_REPLY, 'ended');
      expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('input-required');
      expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(askQuestion(said));
      const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
      expect(taskId).toBeTruthy();

      await reloadUntilResumed(page, 'found');
      await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([said]); // once: the resumed exchange, not the past's
      expect(await page.locator('.msg.agent').count()).toBe(1);
      expect(await page.locator(LAST_REPLY).getAttribute('data-resumed')).toBe('true');
      expect(await page.locator(LAST_REPLY).getAttribute('data-phase')).toBe('ended');
      expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('input-required');
      expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
      expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(askQuestion(said));
      expect(await page.locator(`${LAST_REPLY} .note`).textContent()).toBe('Not completed: the agent needs more input.');
      expect(await page.locator('#send').isEnabled()).toBe(true);

      await exchange(page, 'deep blue', 2);
      expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
      expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(answeredReply('deep blue', { turn: 2, earlier: [said] }));
      expect(await page.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
      expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (ask)`, `${prefix} turn 2 (answer)`]);
    });

    it('a v0.3 agent (no ListTasks): the page starts as usual, with no resumed exchange and no error', async () => {
      const v03 = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory-v03.json'), protocol: '0.3', chunkDelayMs: 30 });
      const old = await startWebChatServer({ port: 0, agent: v03.url, secret: SECRET });
      const other = await openPage(browser!, reloadErrors);
      try {
        await other.goto(`${old.url}?thread=${THREAD}-v03`);
        await other.waitForSelector('body[data-resume="unsupported"]', { timeout: 10_000 });
        await other.waitForSelector('body[data-history="unsupported"]', { timeout: 10_000 });
        await expect.poll(() => other.locator('#status-text').textContent()).toBe('Ready');
        expect(await other.locator('.msg').count()).toBe(0);
        // No history there: a small note says so, and there is no "Load earlier".
        expect(await other.locator('#history-note').textContent()).toContain('keeps no history');
        expect(await other.locator('#load-earlier').isHidden()).toBe(true);
        expect(await other.locator('#send').isEnabled()).toBe(true);
      } finally {
        await other.context().close();
        await old.close();
        await v03.close();
      }
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

        await reloadUntilResumed(page, 'none');
        await expect.poll(() => shownExchanges(page)).toEqual({ said, replies: chatReplies(said), tasks });
        expect(new Set(tasks).size).toBe(3);
        expect(await page.locator('.msg.agent[data-past="true"][data-outcome="completed"]').count()).toBe(3);
        expect(await page.locator('#load-earlier').isHidden()).toBe(true); // the page holds the whole thread

        const slow = 'slow — and a fourth';
        await send(page, slow);
        await waitForMidStream(page, LAST_REPLY);
        const taskId = await page.locator(LAST_REPLY).getAttribute('data-task-id');
        const reply = await recordReplyTexts(page, LAST_REPLY);
        await reloadUntilResumed(page, 'found');
        await waitForMidStream(page, LAST_REPLY);
        // The three above, then the reply in flight under its message: four exchanges, each once.
        await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual([...said, slow]);
        expect(await shownExchanges(page).then((shown) => shown.tasks)).toEqual([...tasks, taskId]);
        expect(await page.locator(LAST_REPLY).getAttribute('data-resumed')).toBe('true');

        const whole = slowReply(slow, { turn: 4, earlier: said });
        await waitForPhase(page, LAST_REPLY, 'ended', 30_000);
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

      await reloadUntilResumed(page, 'none');
      await expect
        .poll(() => shownExchanges(page))
        .toEqual({ said: said.slice(2), replies: chatReplies(said).slice(2), tasks: tasks.slice(2) });
      await page.click('#load-earlier');
      await expect.poll(() => page.locator('.msg.user').count()).toBe(5);
      expect(await shownExchanges(page)).toEqual({ said, replies: chatReplies(said), tasks });
      await page.waitForSelector('body[data-history="shown"]');
      expect(await page.locator('#load-earlier').isHidden()).toBe(true);
      expect(await page.locator('#send').isEnabled()).toBe(true);
    });

    it('had no page errors and no console errors', () => {
      expect(reloadErrors.page).toEqual([]);
      expect(reloadErrors.console).toEqual([]);
    });
  });

  it('says the agent cannot be reached instead of "Ready"', async () => {
    if (browser === undefined) throw new Error('the browser did not start');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const down = await startWebChatServer({ port: 0, agent: `http://127.0.0.1:${port}/`, secret: SECRET });
    const other = await browser.newPage();
    try {
      await other.goto(`${down.url}?thread=${THREAD}-down`);
      await other.waitForSelector('body[data-ready="true"]');
      await expect
        .poll(() => other.locator('#status-text').textContent())
        .toMatch(new RegExp(`^The agent at 127\\.0\\.0\\.1:${port} cannot be reached \\(.+\\)\\. Is it running\\?$`));
      expect(await other.locator('#status').getAttribute('data-tone')).toBe('error');
      // The look for a reply in flight failed too, quietly: no exchange, and Send works.
      await other.waitForSelector('body[data-resume="failed"]', { timeout: 10_000 });
      expect(await other.locator('.msg').count()).toBe(0);
      expect(await other.locator('#send').isEnabled()).toBe(true);
    } finally {
      await other.close();
      await down.close();
    }
  });
});

describe('web chat signals', () => {
  const tick = (): Promise<void> => new Promise((resolve) => queueMicrotask(resolve));

  it('computed is lazy and cached; effects run at once, then once per batch of changes', async () => {
    const a = signal(1);
    const b = signal(10);
    let computations = 0;
    const sum = computed(() => {
      computations++;
      return a() + b();
    });
    expect(computations).toBe(0);
    expect([sum(), sum()]).toEqual([11, 11]);
    expect(computations).toBe(1);
    const seen: number[] = [];
    const stop = effect(() => {
      seen.push(sum());
    });
    expect(seen).toEqual([11]);
    a.set(2);
    b.update((value) => value + 1);
    expect(seen).toEqual([11]); // not yet: effects run in a microtask
    await tick();
    expect(seen).toEqual([11, 13]);
    a.set(2); // equal: nobody hears
    await tick();
    expect(seen).toEqual([11, 13]);
    stop();
    a.set(5);
    await tick();
    expect(seen).toEqual([11, 13]);
    expect(sum.peek()).toBe(16);
  });

  it('tracks dependencies per run (a branch not taken is not a dependency)', async () => {
    const useB = signal(false);
    const a = signal('a');
    const b = signal('b');
    const runs: string[] = [];
    effect(() => {
      runs.push(useB() ? b() : a());
    });
    b.set('b2'); // not read yet
    await tick();
    expect(runs).toEqual(['a']);
    useB.set(true);
    await tick();
    a.set('a2'); // no longer read
    await tick();
    expect(runs).toEqual(['a', 'b2']);
  });
});

describe('web chat state (chat.ts), in Node', () => {
  /** What the test reads of the bundle (typed here: chat.ts imports `a4h-a2a`, which only the page's build resolves). */
  interface BundledChat {
    createChat(
      config: { agent: string; thread: string; contextId: string },
      client: A2AClient,
    ): { canSend(): boolean; exchanges(): readonly { view: TurnView }[]; send(text: string): void };
    effect(run: () => void): () => void;
  }

  /** chat.ts and its signals, bundled as the page bundles them (`a4h-a2a` is the library's source), rxjs left to Node. */
  async function bundledChat(): Promise<BundledChat> {
    const src = join(ROOT, 'examples', 'web-chat', 'src');
    const result = await build({
      stdin: { contents: "export * from './chat.ts'; export * from './signals.ts';", resolveDir: src, loader: 'ts' },
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      alias: { 'a4h-a2a': join(ROOT, 'src', 'index.ts') },
      packages: 'external',
      logLevel: 'silent',
    });
    const out = join(ROOT, 'test-output', 'web-chat-state.mjs');
    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await writeFile(out, result.outputFiles[0]!.text);
    return import(pathToFileURL(out).href);
  }

  it('a long reply changes the exchange a few times (coalesced), not once per chunk, and ends with the whole reply', async () => {
    const chunks = 100;
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () =>
        interval(1).pipe(
          take(chunks),
          map((i) => ev.artifact('T', 'a', 'x', { append: i > 0, lastChunk: i === chunks - 1 })),
          startWith(ev.task('T', 'working')),
          endWith(ev.status('T', 'completed')),
        ),
    });
    const { createChat, effect: pageEffect } = await bundledChat();
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    const chat = createChat({ agent: 'http://127.0.0.1:1/', thread: 'coalesce', contextId: 'ctx-coalesce' }, client);
    await expect.poll(() => chat.canSend()).toBe(true); // the look for a reply in flight is done
    const views = new Set<unknown>();
    pageEffect(() => {
      const view = chat.exchanges().at(-1)?.view;
      if (view !== undefined) views.add(view);
    });
    chat.send('a long one, please');
    await expect.poll(() => chat.exchanges().at(-1)?.view.phase, { timeout: 5_000 }).toBe('ended');
    expect(chat.exchanges().at(-1)?.view.reply).toBe('x'.repeat(chunks));
    expect(views.size).toBeLessThan(chunks / 4);
    await client.close();
  });
});
