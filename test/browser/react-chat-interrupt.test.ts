/**
 * The React chat example's question (examples/react-chat: `useChat` with the transport of
 * `a4h-a2a/ai-sdk`) in headless Chromium against the A2A 1.1 fixture agent (its 1.1 mount, on
 * loopback): the agent's question shown as a marked block with the answer box focused, and that
 * question answered from two tabs of the same thread at once: one tab shows the completed reply, the
 * other "The question was answered already.", and the agent took one answer.
 *
 * Needs Chromium at /usr/bin/chromium and the built library (`npm run build`), as react-chat.test.ts.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cors } from '../../demo/cors.js';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { INPUT_QUESTION, bookedReply } from '../../fixtures/texts.js';
import { buildReactChat } from '../../examples/react-chat/build.mjs';
import { startReactChatServer, type ReactChatServer } from '../../examples/react-chat/server.mjs';
import { launchChromium, openPage, send, waitForPhase, type PageErrors } from './kit.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'react-chat-interrupt-test-secret-0123456789';
const LAST_REPLY = '.msg.agent:last-of-type';
const ANSWERED = 'The question was answered already.';

let agent: V11Agent | undefined;
let server: ReactChatServer | undefined;
let browser: Browser | undefined;
const errors: PageErrors = { page: [], console: [] };

/** A second tab of `page`'s browser profile, its errors recorded as openPage records them. */
async function secondTab(page: Page): Promise<Page> {
  const tab = await page.context().newPage();
  tab.on('pageerror', (error) => errors.page.push(error.stack ?? error.message));
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.console.push(message.text());
  });
  return tab;
}

/** `page` on `thread`, its chat shown. */
async function openThread(page: Page, thread: string): Promise<void> {
  await page.goto(`${server!.url}?thread=${thread}`);
  await page.waitForSelector('#input', { timeout: 10_000 });
}

/** What a tab shows once its answer settled: the reply's outcome and text, or the chat's error. */
async function settled(page: Page): Promise<{ error: string } | { outcome: string | null; body: string | null }> {
  await page.waitForFunction(
    (selector) =>
      document.querySelector('.error') !== null || document.querySelector(selector)?.getAttribute('data-outcome') === 'completed',
    LAST_REPLY,
    { timeout: 10_000 },
  );
  const error = await page
    .locator('.error')
    .textContent({ timeout: 100 })
    .catch(() => null);
  if (error !== null) return { error };
  return {
    outcome: await page.locator(LAST_REPLY).getAttribute('data-outcome'),
    body: await page.locator(`${LAST_REPLY} .body`).textContent(),
  };
}

describe('react chat example: the agent question, against an A2A 1.1 agent, in Chromium', { timeout: 45_000 }, () => {
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build` first');
    // The page talks to the agent from another origin: the demo agent's CORS in front of the fixture's routes.
    agent = await startV11Agent({ elicitations: 'one', answerDelayMs: 150, before: [cors] });
    await buildReactChat();
    server = await startReactChatServer({ port: 0, agent: agent.url(V11_MOUNTS.main), secret: SECRET });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await agent?.close();
  });

  it('the question is a marked block, its generation on it, and the answer box has the focus', async () => {
    const page = await openPage(browser!, errors);
    await openThread(page, 'react-question');
    await page.locator('body').click({ position: { x: 5, y: 5 } }); // the focus elsewhere first
    await send(page, 'input please');
    await waitForPhase(page, LAST_REPLY, 'ended');
    const question = page.locator(LAST_REPLY);
    expect(await question.getAttribute('data-outcome')).toBe('input-required');
    expect(await question.getAttribute('class')).toContain('question');
    expect(await question.locator('.asks').textContent()).toBe('The agent asks');
    expect(await question.locator('.body').textContent()).toBe(INPUT_QUESTION);
    expect(Number(await question.getAttribute('data-generation'))).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('input');
  });

  it('two tabs answer one question at once: one shows the completed reply, the other "answered already"; the agent took one answer', async () => {
    const first = await openPage(browser!, errors);
    await openThread(first, 'react-tabs');
    await send(first, 'input please');
    await waitForPhase(first, LAST_REPLY, 'ended');
    const taskId = (await first.locator(LAST_REPLY).getAttribute('data-task-id'))!;
    const generation = await first.locator(LAST_REPLY).getAttribute('data-generation');
    expect(Number(generation)).toBeGreaterThan(0);

    // The second tab: the question from the thread's history, found again by the resume with its generation.
    const second = await secondTab(first);
    await openThread(second, 'react-tabs');
    await expect.poll(() => second.locator(LAST_REPLY).getAttribute('data-generation')).toBe(generation);
    expect(await second.locator(LAST_REPLY).getAttribute('data-task-id')).toBe(taskId);
    await expect.poll(() => second.locator('#send').isEnabled()).toBe(true);

    await first.fill('#input', 'Paris');
    await second.fill('#input', 'Rome');
    await Promise.all([first.click('#send'), second.click('#send')]);
    const shown = await Promise.all([settled(first), settled(second)]);

    const completed = shown.flatMap((tab) => ('outcome' in tab ? [tab] : []));
    const refused = shown.flatMap((tab) => ('error' in tab ? [tab.error] : []));
    expect(refused).toEqual([ANSWERED]);
    expect(completed).toHaveLength(1);
    expect([bookedReply('Paris'), bookedReply('Rome')]).toContain(completed[0]!.body);
    // The agent's record: of the answers to the task, one was taken; a refused one was its -32010.
    const answers = agent!.record.of('SendStreamingMessage', taskId);
    expect(answers.filter((request) => request.refused === undefined)).toHaveLength(1);
    expect(answers.filter((request) => request.refused !== undefined).every((request) => request.refused === -32010)).toBe(true);
  });

  it('had no page errors and no console errors', () => {
    expect(errors.page).toEqual([]);
    // The refused answer is useChat's error, shown; not a page error, and no failed request (-32010 comes in a 200 answer).
    expect(errors.console).toEqual([]);
  });
});
