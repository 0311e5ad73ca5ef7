/**
 * The Angular chat example (examples/angular) draws the A2UI surfaces of the thread's past with
 * `@a2ui/angular` 0.8.3, in headless Chromium against the A2UI fixture behaviours (angular-a2ui-agent.ts):
 * a v0.8 form (`v08-drink`) drawn, the page reloaded, the form drawn from history (`a2aConversation`'s
 * `surfaces()` brings the past's; a screenshot in the test's temp directory, its path printed), a choice
 * and a click sent as the thread's next turn (the agent's record: the `userAction` on that surface), the
 * answer drawn on it; a new page on the thread draws it as the answer left it and acts on it again; a
 * v1.0 form of the past gets the page's note, not a drawing.
 *
 * The build is the one angular.test.ts makes (angular-build.ts). Needs the example installed
 * (`node examples/angular/setup.mjs install`) and Chromium at /usr/bin/chromium.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FORM_BUTTON, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import type { ExampleBackend } from '../../examples/backend.mjs';
import { startAngularChatServer } from '../../examples/angular/server.mjs';
import { startAngularA2UIAgent, V08_DRINK, RENAMED, type AngularA2UIAgent } from './angular-a2ui-agent.js';
import { builtAngularExample } from './angular-build.js';
import { launchChromium, openThreadPage, send, waitForPhase, type PageErrors } from './kit.js';

const SECRET = 'angular-a2ui-history-test-secret-not-for-production';
const LATEST = '.msg.agent.latest';
const READY = 'main[data-resuming="false"][data-history="shown"]';
const SURFACE = '[data-testid="surface"]';

let agent: AngularA2UIAgent | undefined;
let server: ExampleBackend | undefined;
let browser: Browser | undefined;
let shots = '';
const errors: PageErrors = { page: [], console: [] };
const dialogs: string[] = [];

/** A page of its own on `thread`, its resume and its past at start settled. */
async function threadPage(thread: string): Promise<Page> {
  const { page } = await openThreadPage(browser, server?.url, SECRET, thread, errors, '', READY);
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return page;
}

/** Sends `text` and waits until its turn ended. */
async function exchange(page: Page, text: string): Promise<void> {
  await send(page, text);
  await page.waitForFunction((text) => [...document.querySelectorAll('.msg.user')].at(-1)?.textContent?.trim() === text, text);
  await waitForPhase(page, LATEST, 'ended', 15_000);
}

/** Reloads `page` and waits until its resume and its past settled. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector(READY, { timeout: 10_000 });
}

/** Picks `choice` on the page's one drawn form and presses its button; waits until the action's turn ended. */
async function submit(page: Page, choice: string): Promise<void> {
  const surface = page.locator(SURFACE);
  await surface.locator('select').selectOption(choice);
  await surface.locator('button').click();
  await expect.poll(() => page.locator('.msg.user').last().textContent()).toContain('submit');
  await waitForPhase(page, LATEST, 'ended', 15_000);
}

/** A screenshot of `page` into the test's temp directory; its path printed. */
async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(shots, name);
  await page.screenshot({ path, fullPage: true });
  console.info(`screenshot: ${path}`);
}

/** The v0.8 `userAction`s the agent received, in order. */
const actionsReceived = () =>
  (agent?.record() ?? [])
    .flatMap((received) => (received.message['parts'] ?? []) as { data?: unknown }[])
    .flatMap((part) => (Array.isArray(part.data) ? part.data : part.data === undefined ? [] : [part.data]) as Record<string, unknown>[])
    .filter((message) => 'userAction' in message);

const userAction = (surfaceId: string | null, choice: string) => ({
  userAction: expect.objectContaining({ name: 'submit', surfaceId, sourceComponentId: RENAMED['submit'], context: { choice } }),
});

describe('Angular chat example: A2UI surfaces of the past, drawn by @a2ui/angular 0.8.3', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    shots = await mkdtemp(join(tmpdir(), 'a4h-angular-a2ui-history-'));
    await builtAngularExample();
    agent = await startAngularA2UIAgent();
    server = await startAngularChatServer({ port: 0, agent: agent.url, secret: SECRET });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await agent?.close();
  });

  it('reloaded: the v0.8 form drawn from history; a click goes as the next turn; the answer updates it; a new page draws it answered', async () => {
    const page = await threadPage('angular-a2ui-history');
    await exchange(page, V08_DRINK);
    await expect.poll(() => page.locator(SURFACE).count()).toBe(1);
    const surfaceId = await page.locator(SURFACE).getAttribute('data-surface-id');
    expect(agent?.drinks()).toEqual([surfaceId]);

    await reload(page);
    // No turn ran on this load: the exchange is the past's, and its form comes from history.
    expect(await page.locator('.msg.agent[data-past="true"]').count()).toBe(1);
    expect(await page.locator(LATEST).count()).toBe(0);
    const surface = page.locator(SURFACE);
    await expect.poll(() => surface.count()).toBe(1);
    expect(await surface.getAttribute('data-surface-id')).toBe(surfaceId);
    await expect.poll(() => surface.locator('a2ui-text').first().textContent(), { timeout: 10_000 }).toContain(FORM_TITLE);
    await expect.poll(() => surface.locator('select option').allTextContents()).toEqual(['Tea', 'Coffee', 'Water']);
    expect(await surface.locator('select').inputValue()).toBe('tea'); // the data model's /choice
    expect((await surface.locator('button').textContent())?.trim()).toBe(FORM_BUTTON);
    await screenshot(page, 'angular-a2ui-history-form.png');

    await submit(page, 'coffee');
    expect(actionsReceived()).toEqual([userAction(surfaceId, 'coffee')]);
    await expect.poll(() => surface.textContent(), { timeout: 10_000 }).toContain(choseText('coffee'));
    expect(await page.locator(SURFACE).count()).toBe(1);
    expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
    await screenshot(page, 'angular-a2ui-history-answered.png');

    // A new page on the thread: the form as the answer left it (created in one past exchange, answered in the next).
    const second = await threadPage('angular-a2ui-history');
    expect(await second.locator('.msg.agent[data-past="true"]').count()).toBe(2);
    const again = second.locator(SURFACE);
    await expect.poll(() => again.textContent(), { timeout: 10_000 }).toContain(choseText('coffee'));
    expect(await again.getAttribute('data-surface-id')).toBe(surfaceId);
    expect(await again.count()).toBe(1);
    await submit(second, 'water');
    expect(actionsReceived()).toEqual([userAction(surfaceId, 'coffee'), userAction(surfaceId, 'water')]);
    await expect.poll(() => again.textContent(), { timeout: 10_000 }).toContain(choseText('water'));
    expect(await second.locator(SURFACE).count()).toBe(1);
    expect(await second.locator('[data-testid="surface-failed"]').count()).toBe(0);
    expect({ errors, dialogs }).toEqual({ errors: { page: [], console: [] }, dialogs: [] });
    await page.context().close();
    await second.context().close();
  });

  it('a v1.0 form of the past is not drawn: the page’s note says why', async () => {
    const page = await threadPage('angular-a2ui-history-v10');
    await exchange(page, 'form');
    await reload(page);
    expect(await page.locator('.msg.agent[data-past="true"]').count()).toBe(1);
    const note = page.locator('[data-testid="surface-undrawn"]');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toContain('A2UI v1.0');
    expect(await note.textContent()).toContain('v0.8 only');
    expect(await page.locator(SURFACE).count()).toBe(0);
    expect({ errors, dialogs }).toEqual({ errors: { page: [], console: [] }, dialogs: [] });
    await page.context().close();
  });
});
