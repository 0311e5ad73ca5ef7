/**
 * The React chat example draws the agent's A2UI surfaces with `@copilotkit/a2ui-renderer`, through
 * the AI SDK transport's data parts, in a real headless Chromium: the demo agent's form drawn (a
 * screenshot in the test's output folder, its path printed), a choice and its button sent back as
 * the chat's next message, the agent's answer drawn on the same form; a hostile surface (the A2UI
 * fixture agent's `evil-url`) refused with the refusal shown, no script run, and the page working on.
 *
 * Needs Chromium at /usr/bin/chromium and the built library (`npm run build`). Without either it fails.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TEXT } from '../../demo/a2ui.js';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { cors } from '../../demo/cors.js';
import { startA2UIAgent, type A2UIAgents } from '../../fixtures/agent-a2ui.js';
import { A2UI_EXTENSION, CATALOG_IDS, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import { buildReactChat } from '../../examples/react-chat/build.mjs';
import { startReactChatServer, type ReactChatServer } from '../../examples/react-chat/server.mjs';
import { deriveContextId } from '../../src/index.js';
import { launchChromium, openPage, send, waitForPhase } from './kit.js';
import { linesOf } from './reload.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'react-chat-a2ui-test-secret-not-for-production';
const LAST_REPLY = '.msg.agent:last-of-type';
const FORM = '.msg.agent .surface';

let dir = '';
/** Where the screenshots go: kept after the run (its path is printed). */
let shots = '';
let demo: DemoAgent | undefined;
let fixture: A2UIAgents | undefined;
let demoPage: ReactChatServer | undefined;
let fixturePage: ReactChatServer | undefined;
let browser: Browser | undefined;
const agentLog: string[] = [];
const errors = { page: [] as string[], console: [] as string[] };
/** Dialogs any page opened (an `alert` a script ran). */
const dialogs: string[] = [];

async function threadPage(server: ReactChatServer, thread: string): Promise<{ page: Page; prefix: string }> {
  const page = await openPage(browser!, errors);
  page.setDefaultTimeout(10_000);
  page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
  await page.goto(`${server.url}?thread=${thread}`);
  await page.waitForSelector('#input', { timeout: 10_000 });
  return { page, prefix: (await deriveContextId(SECRET, 'web', thread)).slice(0, 8) };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(shots, name);
  await page.locator('#input').blur();
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

/** Waits for the chat's `count`th agent reply to end; a chat error instead (a message refused, say) fails with its text. */
async function replyEnded(page: Page, count: number): Promise<void> {
  const settled = async () => (await page.locator('.error').count()) > 0 || (await page.locator('.msg.agent').count()) === count;
  await expect.poll(settled, { timeout: 10_000 }).toBe(true);
  expect(await page.locator('.error').allTextContents()).toEqual([]);
  await waitForPhase(page, LAST_REPLY, 'ended');
}

describe('react chat example: A2UI surfaces drawn by @copilotkit/a2ui-renderer through the AI SDK transport', { timeout: 45_000 }, () => {
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build` first');
    dir = await mkdtemp(join(tmpdir(), 'a4h-react-chat-a2ui-'));
    shots = await mkdtemp(join(tmpdir(), 'a4h-react-chat-a2ui-shots-'));
    demo = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 10, log: (line) => agentLog.push(line) });
    // CORS, as the demo agent's, for the page (on another origin).
    fixture = await startA2UIAgent({ before: [cors] });
    await buildReactChat();
    demoPage = await startReactChatServer({ port: 0, agent: demo.url, secret: SECRET });
    fixturePage = await startReactChatServer({ port: 0, agent: fixture.v1.url('/'), secret: SECRET });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await demoPage?.close();
    await fixturePage?.close();
    await fixture?.close();
    await demo?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('`form pick a drink`: the form drawn; Coffee picked and Submit pressed; the answer drawn on the same form', async () => {
    const { page, prefix } = await threadPage(demoPage!, 'react-form');
    await send(page, 'form pick a drink');
    await replyEnded(page, 1);
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(FORM_TEXT);
    const form = page.locator(FORM);
    await expect.poll(() => form.locator('h3').textContent()).toBe(FORM_TITLE);
    expect(await form.locator('label').allTextContents()).toEqual(['Tea', 'Coffee', 'Water']);
    expect(await form.getByLabel('Tea').isChecked()).toBe(true); // the data model's /choice
    await screenshot(page, 'react-chat-a2ui-form.png');

    await form.getByLabel('Coffee').check();
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => page.locator('.msg.user').allTextContents()).toEqual(['form pick a drink', 'Pressed “submit”']);
    await replyEnded(page, 2);
    expect(await page.locator(`${LAST_REPLY} .body`).textContent()).toBe(`${choseText('coffee')}.`);
    expect(await page.locator(`${LAST_REPLY} .surface-note`).textContent()).toBe('The agent updated the form above.');
    // The answer is on the form itself, where the first reply drew it; still one form.
    await expect.poll(() => form.textContent()).toContain(choseText('coffee'));
    expect(await page.locator(FORM).count()).toBe(1);
    expect(await page.locator('.surface-error, .surface-refused').count()).toBe(0);
    expect(linesOf(agentLog, prefix)).toEqual([`${prefix} turn 1 (form)`, `${prefix} turn 2 (form action)`]);
    await screenshot(page, 'react-chat-a2ui-answered.png');
  });

  it('the page tells an agent that offers A2UI what it draws: the extension activated, its catalog in a2uiClientCapabilities', async () => {
    const { page } = await threadPage(fixturePage!, 'react-caps');
    await send(page, 'form');
    await replyEnded(page, 1);
    await expect.poll(() => page.locator(`${FORM} h3`).textContent()).toBe(FORM_TITLE);
    const [received] = fixture!.record('v1', '/').slice(-1);
    expect(received?.extensions).toContain(A2UI_EXTENSION.v1);
    expect(received?.capabilities).toEqual({ 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } });
  });

  it('a hostile surface (`evil-url`: a javascript: URL): refused and said so, nothing of it drawn, no script run; the page works on', async () => {
    const { page } = await threadPage(fixturePage!, 'react-evil');
    await send(page, 'evil-url');
    await replyEnded(page, 1);
    const refused = page.locator(`${LAST_REPLY} .surface-refused`);
    await expect.poll(() => refused.getAttribute('data-reason')).toBe('unsafe-url');
    expect(await refused.textContent()).toContain('A form from the agent was refused');
    // No element carries the URL.
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => /javascript:/i.test(a.value))),
      ),
    ).toBe(false);
    // Its components were the refused message: the surface was created, and drew nothing one could click.
    expect(
      await page.locator(`${LAST_REPLY} .surface`).evaluate((surface) => surface.querySelectorAll('img, a, button, iframe, script').length),
    ).toBe(0);
    await screenshot(page, 'react-chat-a2ui-refused.png');

    // The page works on: the same agent's form drawn, picked and answered on it.
    await send(page, 'form');
    await replyEnded(page, 2);
    const form = page.locator('.msg.agent').nth(1).locator('.surface');
    await expect.poll(() => form.locator('h3').textContent()).toBe(FORM_TITLE);
    await form.getByLabel('Water').check();
    await form.getByRole('button', { name: 'Submit' }).click();
    await replyEnded(page, 3);
    await expect.poll(() => form.textContent()).toContain(choseText('water'));
    // The surface asked for its data model (sendDataModel): the page sent it as the renderer held it, to that agent.
    const surfaceId = await form.getAttribute('data-surface');
    expect(fixture!.record('v1', '/').at(-1)?.dataModel).toEqual({ version: 'v1.0', surfaces: { [surfaceId!]: { choice: ['water'] } } });
    expect(dialogs).toEqual([]);
  });

  it('had no page errors and no console errors', () => {
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
  });
});
