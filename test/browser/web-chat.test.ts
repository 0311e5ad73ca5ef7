/**
 * The web chat example (examples/web-chat) in a real headless Chromium against the demo agent:
 * the library bundled for the browser streams a reply, decodes a raw-bytes file part (the SDK's
 * `Buffer` path, with the polyfill; without it the same reply fails) and draws the demo's chart,
 * sends a file the agent echoes back as a download link, cancels a running turn
 * (unsubscribe → CancelTask), and after a page reload shows the thread's past (read from the agent,
 * "Load earlier" for older pages) and picks a reply in progress (or the agent's question) up again
 * below it, nothing doubled.
 *
 * Needs Chromium at /usr/bin/chromium (Debian's `chromium` package; CI installs it) and the built
 * library (`npm run build`: the example's server imports dist/index.js). Without either it fails.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startDemoAgent } from '../../demo/agent.js';
import { answeredReply, askQuestion, slowReply } from '../../demo/reply.js';
import { startWebChatServer } from '../../examples/web-chat/server.mjs';
import { expectCanceledAtAgent, expectStopped, openPage, send, waitForMidStream, waitForPhase } from './kit.js';
import { linesOf, recordReplyTexts, wholeSlowReply } from './reload.js';
import {
  ROOT,
  SCREENSHOT,
  README_SCREENSHOT,
  SECRET,
  THREAD,
  dir,
  agent,
  server,
  browser,
  page,
  agentLog,
  errors,
  contextPrefix,
  setUp,
  tearDown,
  lastReply,
  LAST_REPLY,
  threadPage,
  reloadUntilResumed,
  exchange,
  shownExchanges,
  chatReplies,
} from './web-chat-kit.js';

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
