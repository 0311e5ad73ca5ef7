/**
 * The web chat draws the A2UI surfaces of the thread's past (`client.history`'s exchanges, each its
 * surfaces as they stand) with @a2ui/lit, in Chromium, against the A2UI fixture agents (their record
 * shows what the page sent): a form drawn, the page reloaded, the form drawn again in the past
 * exchange's bubble (a screenshot in test-output/), a click on it sent as the thread's next turn and
 * answered on it in place; a new page on the thread draws the form as the answer left it (created in
 * one exchange, updated in the next) and acts on it again; with one exchange a page, the answer waits
 * for the page that created the form ("Load earlier") and is drawn on it then; a v0.8 surface of the
 * past noted as not drawn, as a live one is.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { CATALOG_IDS, FORM_BUTTON, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import { buildWebChat } from '../../examples/web-chat/build.mjs';
import { launchChromium, send, waitForPhase } from './kit.js';
import { ROOT } from './web-chat-kit.js';
import { LAST, pickAndSubmit, startA2UIAgents, surfaceText, waitForSettled, type A2UIPage } from './web-chat-a2ui-kit.js';

/** Where the screenshot of the form drawn from history goes. */
const SHOT = join(ROOT, 'test-output', 'web-chat-a2ui-history.png');
/** The past's agent bubbles. */
const PAST = '.msg.agent[data-past="true"]';

/** The action part the page sends for a choice on `surfaceId` (surfaceAction's, in v1.0). */
const actionPart = (surfaceId: string, choice: string) => ({
  version: 'v1.0',
  action: { name: 'submit', surfaceId, sourceComponentId: 'submit', timestamp: expect.any(String), context: { choice: [choice] } },
});

/** The A2UI actions the agent received, in order. */
const actionsOf = (a2ui: A2UIPage) =>
  a2ui.agents
    .record('v1', '/')
    .flatMap((received) => (received.message['parts'] ?? []) as { data?: unknown }[])
    .flatMap((part) => (Array.isArray(part.data) ? (part.data as Record<string, unknown>[]) : []))
    .filter((message) => 'action' in message);

/** Reloads `page` and waits until it is ready, nothing in flight, its past shown. */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  await page.waitForSelector('body[data-resume="none"]', { timeout: 10_000 });
  await page.waitForSelector('body[data-history="shown"]', { timeout: 10_000 });
}

describe('web chat: A2UI surfaces of the past drawn from history', { timeout: 60_000 }, () => {
  let browser: Browser | undefined;
  let a2ui: A2UIPage;
  beforeAll(async () => {
    await buildWebChat();
    browser = await launchChromium();
    a2ui = await startA2UIAgents(browser);
  }, 60_000);
  afterAll(async () => {
    await a2ui?.close();
    await browser?.close();
  });
  const clean = () => expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });

  it('reloaded: the form drawn in the past bubble; a click goes as the next turn, the answer updates it there', async () => {
    const page = await a2ui.open('a2ui-hist-reload');
    await send(page, 'form');
    await waitForPhase(page, LAST, 'ended');
    await expect.poll(() => page.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
    const [surfaceId] = a2ui.agents.surfaces('v1', '/');
    const styles = (surface: Locator) => surface.evaluate((element) => element.shadowRoot?.adoptedStyleSheets.length ?? 0);
    const liveStyles = await styles(page.locator('a2ui-surface'));

    await reload(page);
    const past = page.locator(PAST);
    expect(await past.count()).toBe(1);
    const form = past.locator('.surfaces a2ui-surface');
    await expect.poll(() => form.locator('h3').textContent()).toBe(FORM_TITLE);
    expect(await form.getAttribute('data-surface-id')).toBe(surfaceId);
    expect(await page.locator('a2ui-surface').count()).toBe(1);
    // As it stands: the data model's choice checked, the button there, its styles in its shadow root.
    expect(await form.locator('input[type="radio"]:checked').evaluate((input: HTMLInputElement) => input.value)).toBe('tea');
    expect(await form.locator('button', { hasText: FORM_BUTTON }).count()).toBe(1);
    expect(await styles(form)).toBe(liveStyles);
    expect(await past.locator('.surface-note').count()).toBe(0);
    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await page.locator('#input').blur();
    await page.screenshot({ path: SHOT });
    console.log(`web chat A2UI from history, screenshot: ${SHOT}`);

    await pickAndSubmit(page, 'Coffee', FORM_BUTTON);
    await expect.poll(() => page.locator('.msg.user').count()).toBe(2);
    expect(await page.locator('.msg.user').last().textContent()).toBe('Pressed “submit” {"choice":["coffee"]}');
    await waitForSettled(page);
    expect(await page.locator(`${LAST} > .note`).textContent()).toBe('');
    expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('completed');
    // The agent got the action on its surface, with the page's catalog and the data model the renderer held.
    const record = a2ui.agents.record('v1', '/');
    expect(record).toHaveLength(2);
    expect(actionsOf(a2ui)).toEqual([actionPart(surfaceId!, 'coffee')]);
    expect(record[1]!.capabilities).toEqual({ 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } });
    expect(record[1]!.dataModel).toEqual({ version: 'v1.0', surfaces: { [surfaceId!]: { choice: ['coffee'] } } });
    // Updated where it was drawn: the past bubble's, still the one surface on the page.
    await expect.poll(() => surfaceText(form)).toContain(choseText('coffee'));
    expect(await page.locator('a2ui-surface').count()).toBe(1);
    expect(await page.locator('.surface-note').count()).toBe(0);
    clean();

    // A new page on the thread: the form as the answer left it (created in one past exchange, updated in the next).
    const second = await a2ui.open('a2ui-hist-reload');
    const again = second.locator(`${PAST} a2ui-surface`);
    await expect.poll(() => surfaceText(again)).toContain(choseText('coffee'));
    expect(await second.locator(PAST).count()).toBe(2);
    expect(await second.locator(PAST).first().locator('a2ui-surface').getAttribute('data-surface-id')).toBe(surfaceId);
    expect(await second.locator('a2ui-surface').count()).toBe(1);
    expect(await second.locator('.surface-note').count()).toBe(0);
    // And it still acts: the agent's next answer replaces the choice on it.
    await pickAndSubmit(second, 'Water', FORM_BUTTON);
    await expect.poll(() => second.locator('.msg.agent').count()).toBe(3);
    await waitForSettled(second);
    await expect.poll(() => surfaceText(again)).toContain(choseText('water'));
    expect(actionsOf(a2ui)).toEqual([actionPart(surfaceId!, 'coffee'), actionPart(surfaceId!, 'water')]);
    expect(await second.locator('a2ui-surface').count()).toBe(1);
    clean();
  });

  it('one exchange a page: the answer waits for the page that created the form, drawn on it once "Load earlier" brings it', async () => {
    const page = await a2ui.open('a2ui-hist-pages');
    await send(page, 'form');
    await waitForPhase(page, LAST, 'ended');
    await expect.poll(() => page.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
    await pickAndSubmit(page, 'Water', FORM_BUTTON);
    await expect.poll(() => page.locator('.msg.agent').count()).toBe(2);
    await waitForSettled(page);
    const surfaceId = await page.locator('a2ui-surface').getAttribute('data-surface-id');

    const paged = await a2ui.open('a2ui-hist-pages', '&page=1');
    // The newest page: the answer alone, its surface's creation not shown yet: nothing drawn, no note.
    expect(await paged.locator(PAST).count()).toBe(1);
    expect(await paged.locator('a2ui-surface').count()).toBe(0);
    expect(await paged.locator('.surface-note').count()).toBe(0);
    await paged.locator('#load-earlier').click();
    await expect.poll(() => paged.locator(PAST).count()).toBe(2);
    const form = paged.locator(PAST).first().locator('a2ui-surface');
    await expect.poll(() => surfaceText(form)).toContain(choseText('water'));
    expect(await form.getAttribute('data-surface-id')).toBe(surfaceId);
    expect(await paged.locator('a2ui-surface').count()).toBe(1);
    expect(await paged.locator('.surface-note').count()).toBe(0);
    clean();
  });

  it('the agent SDK’s v0.9 form drawn from history; a v0.8 one noted in its past bubble as not drawn', async () => {
    const page = await a2ui.open('a2ui-hist-dialects');
    await send(page, 'sdk-form');
    await waitForPhase(page, LAST, 'ended');
    await send(page, 'v08-form');
    await waitForPhase(page, LAST, 'ended');

    await reload(page);
    const [sdk, v08] = [page.locator(PAST).nth(0), page.locator(PAST).nth(1)];
    await expect.poll(() => sdk.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
    expect(await sdk.locator('.surface-note').count()).toBe(0);
    const notes = v08.locator('.surface-note.undrawn');
    await expect.poll(() => notes.count()).toBe(3);
    expect(await notes.first().textContent()).toMatch(/^Surface "v08-form-[0-9a-f]{8}" \(beginRendering\) was not drawn: it is A2UI v0\.8/);
    expect(await v08.locator('a2ui-surface').count()).toBe(0);
    clean();
  });
});
