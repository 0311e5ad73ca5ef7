/**
 * The Angular chat example (examples/angular) draws the agent's A2UI surfaces with `@a2ui/angular`
 * 0.8.3, in headless Chromium against the A2UI fixture behaviours (angular-a2ui-agent.ts: one v1.0 host
 * whose card offers A2UI): a v0.8 form (`v08-drink`) drawn (a screenshot in the test's temp directory,
 * its path printed), a choice made and Submit clicked (the action reaches the agent as a v0.8
 * `userAction`), the agent's answer drawn on the same surface; the fixture's own v0.8 form
 * (`v08-form`), on which that renderer's processor throws, said and not drawn, the page going on; a v1.0
 * form (`form`, what the demo agent sends) not drawn, the page saying why; a hostile surface
 * (`evil-url`) refused and said so, nothing of it run, the page still answering.
 *
 * The build is the one angular.test.ts makes (angular-build.ts). Needs the example installed
 * (`node examples/angular/setup.mjs install`) and Chromium at /usr/bin/chromium.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { EVIL_URL } from '../../fixtures/a2ui-hostile.js';
import { FORM_BUTTON, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import type { ExampleBackend } from '../../examples/backend.mjs';
import { startAngularChatServer } from '../../examples/angular/server.mjs';
import { EVIL_IMAGE, startAngularA2UIAgent, V08_DRINK, V08_EVIL, RENAMED, type AngularA2UIAgent } from './angular-a2ui-agent.js';
import { builtAngularExample } from './angular-build.js';
import { launchChromium, openThreadPage, send, waitForPhase, type PageErrors } from './kit.js';

const SECRET = 'angular-a2ui-test-secret-not-for-production';
const LATEST = '.msg.agent.latest';
const READY = 'main[data-resuming="false"][data-history="shown"]';

let agent: AngularA2UIAgent | undefined;
let server: ExampleBackend | undefined;
let browser: Browser | undefined;
let shots = '';
const errors: PageErrors = { page: [], console: [] };
/** The dialogs any page opened (an `alert` a surface ran would be one). */
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

/** A screenshot of `page` into the test's temp directory; its path printed. */
async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(shots, name);
  await page.screenshot({ path, fullPage: true });
  console.info(`screenshot: ${path}`);
}

/** The A2UI data parts of the messages the agent received, in order (the actions among them). */
const actionsReceived = () =>
  (agent?.record() ?? []).flatMap((received) => {
    const parts = (received.message['parts'] ?? []) as { data?: unknown }[];
    return parts.flatMap((part) => (Array.isArray(part.data) ? part.data : part.data === undefined ? [] : [part.data])) as Record<
      string,
      unknown
    >[];
  });

describe('Angular chat example: A2UI surfaces drawn by @a2ui/angular 0.8.3 (A2UI fixture agent)', { timeout: 40_000 }, () => {
  beforeAll(async () => {
    shots = await mkdtemp(join(tmpdir(), 'a4h-angular-a2ui-'));
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

  it('draws a v0.8 form; a choice and a click send the action; the answer updates the surface', async () => {
    const page = await threadPage('angular-a2ui-v08');
    await exchange(page, V08_DRINK);
    const surface = page.locator('[data-testid="surface"]');
    await expect.poll(() => surface.count()).toBe(1);
    const surfaceId = await surface.getAttribute('data-surface-id');
    expect(agent?.drinks()).toEqual([surfaceId]);
    await expect.poll(() => surface.locator('a2ui-text').first().textContent(), { timeout: 10_000 }).toContain(FORM_TITLE);
    await expect.poll(() => surface.locator('select option').allTextContents()).toEqual(['Tea', 'Coffee', 'Water']);
    expect(await surface.locator('select').inputValue()).toBe('tea'); // the data model's /choice
    expect((await surface.locator('button').textContent())?.trim()).toBe(FORM_BUTTON);
    await screenshot(page, 'angular-a2ui-v08-form.png');

    await surface.locator('select').selectOption('coffee');
    await surface.locator('button').click();
    // The action's turn: the page shows it as the person's message, the agent's answer on the same surface.
    await expect.poll(() => page.locator('.msg.user').last().textContent()).toContain('submit');
    await waitForPhase(page, LATEST, 'ended', 15_000);
    await expect.poll(() => surface.textContent(), { timeout: 10_000 }).toContain(choseText('coffee'));
    expect(await page.locator('[data-testid="surface"]').count()).toBe(1);
    expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
    await screenshot(page, 'angular-a2ui-v08-answered.png');

    const actions = actionsReceived().filter((message) => 'userAction' in message);
    expect(actions).toEqual([
      {
        userAction: expect.objectContaining({
          name: 'submit',
          surfaceId,
          sourceComponentId: RENAMED['submit'],
          context: { choice: 'coffee' },
        }),
      },
    ]);
    // The card offers A2UI: the extension was activated and the page's catalog (v0.8's) told.
    const last = agent?.record().at(-1);
    expect(last?.extensions).toContain('https://a2ui.org/a2a-extension/a2ui/v1.0');
    expect(JSON.stringify(last?.capabilities)).toContain('v0_8/standard_catalog_definition.json');
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
    await page.context().close();
  });

  it('says so when @a2ui/angular cannot draw a v0.8 surface (the fixture’s form: a string equal to a component id), and goes on', async () => {
    const page = await threadPage('angular-a2ui-v08-bug');
    await exchange(page, 'v08-form');
    const failed = page.locator('[data-testid="surface-failed"]');
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('Circular dependency for component "submit"');
    expect(await page.locator('[data-testid="surface"]').count()).toBe(0);
    expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');

    await exchange(page, V08_DRINK); // the page, the processor and the next surface go on
    await expect.poll(() => page.locator('[data-testid="surface"] select').count()).toBe(1);
    expect(await failed.count()).toBe(1);
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
    await page.context().close();
  });

  it('says a v1.0 surface (the demo agent’s form) is not drawn: @a2ui/angular 0.8.3 draws v0.8 only', async () => {
    const page = await threadPage('angular-a2ui-v10');
    await exchange(page, 'form');
    const note = page.locator('[data-testid="surface-undrawn"]');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toContain('A2UI v1.0');
    expect(await note.textContent()).toContain('v0.8 only');
    expect(await page.locator('[data-testid="surface"]').count()).toBe(0);
    expect(await page.locator('a2ui-surface').count()).toBe(0);
    expect(errors.page).toEqual([]);
    await page.context().close();
  });

  it('draws a v0.8 surface whose markdown carries script, and none of it runs; its javascript: Image is refused', async () => {
    const page = await threadPage('angular-a2ui-v08-evil');
    const before = page.url();
    await exchange(page, V08_EVIL);
    const surface = page.locator('[data-testid="surface"]');
    await expect.poll(() => surface.locator('a2ui-text strong').textContent(), { timeout: 10_000 }).toBe('there');
    const refused = page.locator('[data-testid="surface-refused"]');
    expect(await refused.count()).toBe(1);
    expect(await refused.getAttribute('data-reason')).toBe('unsafe-url');
    // markdown-it (no raw HTML, no javascript: link) and Angular's sanitizer: the HTML shows as text, nothing runs.
    expect(await surface.locator('img, script, iframe, [onerror]').count()).toBe(0);
    expect(await surface.locator('a[href^="javascript" i]').count()).toBe(0);
    expect(await surface.textContent()).toContain('<img src=x onerror="alert(1)">');
    expect(await page.content()).not.toContain(EVIL_IMAGE);
    await surface.locator('a2ui-text').click(); // a click on what it drew runs nothing either
    await screenshot(page, 'angular-a2ui-v08-evil.png');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(dialogs).toEqual([]);
    expect(page.url()).toBe(before);
    expect(errors.page).toEqual([]);
    await page.context().close();
  });

  it('refuses a javascript: URL and says so; nothing of it runs; the page still answers', async () => {
    const page = await threadPage('angular-a2ui-evil');
    const before = page.url();
    await exchange(page, 'evil-url');
    const refused = page.locator('[data-testid="surface-refused"]');
    await expect.poll(() => refused.count()).toBeGreaterThan(0);
    expect(await refused.first().getAttribute('data-reason')).toBe('unsafe-url');
    expect(await refused.first().textContent()).toContain('A surface was refused (unsafe-url)');
    const html = await page.content();
    expect(html).not.toContain(EVIL_URL);
    expect(await page.locator('a2ui-image, img').count()).toBe(0);
    await screenshot(page, 'angular-a2ui-refused.png');

    await exchange(page, 'still here');
    expect(await page.locator(LATEST).getAttribute('data-outcome')).toBe('completed');
    expect(await page.locator(`${LATEST} .body`).textContent()).toContain('still here');
    expect(await refused.count()).toBe(0); // the next turn starts with none
    expect(page.url()).toBe(before);
    expect(dialogs).toEqual([]);
    expect(errors.page).toEqual([]);
    await page.context().close();
  });
});
