/**
 * The browser tests' kit: Debian's Chromium through playwright-core (never a downloaded browser), a
 * page that records its errors, the examples' form, and what a cancel must leave at the demo agent.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { TaskState } from '@a2a-js/sdk';
import { connectUrl } from '../../fixtures/sdk-client.js';
import { deriveContextId } from '../../src/index.js';
import { eventually } from '../eventually.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox, no GPU, nothing that reaches beyond loopback on its own. Throws when Chromium is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) to run the browser test`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page in a fresh profile; its uncaught errors and console errors are pushed to the lists. */
export async function openPage(browser: Browser, errors: { page: string[]; console: string[] }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.page.push(error.stack ?? error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.console.push(message.text());
  });
  return page;
}

/** The errors a page recorded: its uncaught errors and its console errors. */
export type PageErrors = { page: string[]; console: string[] };

/** Types `text` into `#input` and clicks `#send` (both examples' forms). */
export async function send(page: Page, text: string): Promise<void> {
  await page.fill('#input', text);
  await page.click('#send');
}

/** Waits until the element `selector` has `data-phase` `wanted`. */
export async function waitForPhase(page: Page, selector: string, wanted: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    ({ selector, wanted }) => document.querySelector(selector)?.getAttribute('data-phase') === wanted,
    { selector, wanted },
    { timeout },
  );
}

/**
 * Waits until the bubble `selector` is running with a few words in, not the whole reply (the demo's
 * ends "same thread"), and `#cancel` is enabled: all seen in one look, while the reply streams.
 */
export async function waitForMidStream(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((selector) => {
    const bubble = document.querySelector(selector);
    const text = bubble?.querySelector('.body')?.textContent ?? '';
    const cancel = document.querySelector<HTMLButtonElement>('#cancel');
    const midway = text.trim().split(/\s+/).length >= 2 && !text.includes('same thread');
    return bubble?.getAttribute('data-phase') === 'running' && midway && cancel?.disabled === false;
  }, selector);
}

/**
 * What a cancel leaves at the demo agent: its log says so and the task is CANCELED (polled: the demo
 * logs the cancel just before its task store records it).
 */
export async function expectCanceledAtAgent(
  agentUrl: string,
  taskId: string,
  agentLog: readonly string[],
  contextPrefix: string,
): Promise<void> {
  await eventually(() => agentLog.includes(`${contextPrefix} canceled`), 5_000);
  const client = await connectUrl(agentUrl, { bindings: ['JSONRPC'], legacyCompat: false });
  await expect
    .poll(async () => (await client.getTask({ tenant: '', id: taskId, historyLength: 0 })).status?.state)
    .toBe(TaskState.TASK_STATE_CANCELED);
}

/** The reply in `body` was cut mid-answer and stays as it is for two more slow words' time. Resolves with its text. */
export async function expectStopped(body: Locator): Promise<string | null> {
  const stoppedAt = await body.textContent();
  expect(stoppedAt).not.toContain('same thread');
  await new Promise((resolve) => setTimeout(resolve, 700));
  expect(await body.textContent()).toBe(stoppedAt);
  return stoppedAt;
}

/**
 * A page of its own (a fresh profile, its errors pushed to `errors`) on the example at `serverUrl`, thread
 * `thread` (`query`: more of the URL's query, e.g. `&page=3`), once `readySelector` is there. Resolves with the
 * page and the thread's contextId prefix (the example's handle is `web`).
 */
export async function openThreadPage(
  browser: Browser | undefined,
  serverUrl: string | undefined,
  secret: string,
  thread: string,
  errors: { page: string[]; console: string[] },
  query: string,
  readySelector: string,
): Promise<{ page: Page; prefix: string }> {
  if (browser === undefined || serverUrl === undefined) throw new Error('the browser or the server did not start');
  const own = await openPage(browser, errors);
  await own.goto(`${serverUrl}?thread=${thread}${query}`);
  await own.waitForSelector(readySelector, { timeout: 10_000 });
  return { page: own, prefix: (await deriveContextId(secret, 'web', thread)).slice(0, 8) };
}
