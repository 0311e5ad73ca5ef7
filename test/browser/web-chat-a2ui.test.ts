/**
 * The web chat draws A2UI surfaces with @a2ui/lit, in Chromium. Against the demo agent: `form …` draws
 * the form in the turn's bubble (a screenshot in test-output/), a choice and a click send the action as
 * the thread's next turn (as the browser sent it: the demo keeps no request log), and the agent's
 * answer updates the form in place. Against the A2UI fixture agents, whose record shows what the page
 * sent: the action and the data model the renderer held; a form the agent waits on, redrawn after a
 * reload and acted on there; the agent SDK's v0.9 form drawn, a v0.8 one noted as not drawn; hostile surfaces (a `javascript:` URL, a value nested too deep, a huge tree,
 * a data model bomb) refused or bounded with a note while no script runs, and the page goes on.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FORM_TEXT as DEMO_FORM_TEXT } from '../../demo/a2ui.js';
import { A2UI_EXTENSION, CATALOG_IDS, FORM_BUTTON, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import { send, waitForPhase, type PageErrors } from './kit.js';
import { ROOT, agent, agentLog, browser, setUp, tearDown, threadPage } from './web-chat-kit.js';
import {
  LAST,
  pickAndSubmit,
  scriptUrls,
  sentMessages,
  surfaceText,
  startA2UIAgents,
  waitForSettled,
  type A2UIPage,
  type SentMessage,
} from './web-chat-a2ui-kit.js';

/** Where the screenshot of the drawn form goes. */
const SHOT = join(ROOT, 'test-output', 'web-chat-a2ui.png');
/** And of the form the agent's answer updated. */
const ANSWERED_SHOT = join(ROOT, 'test-output', 'web-chat-a2ui-answered.png');
/** The capabilities the page's client sends: the one catalog it draws. */
const CAPABILITIES = { 'v1.0': { supportedCatalogIds: [CATALOG_IDS['v1.0']] } };

/** The one A2UI part of an action message, as surfaceAction builds it. */
const actionParts = (surfaceId: string, choice: string) => [
  {
    data: [
      {
        version: 'v1.0',
        action: { name: 'submit', surfaceId, sourceComponentId: 'submit', timestamp: expect.any(String), context: { choice: [choice] } },
      },
    ],
    mediaType: 'application/a2ui+json',
    metadata: { mimeType: 'application/a2ui+json' },
  },
];

describe('web chat: A2UI surfaces drawn with @a2ui/lit', { timeout: 60_000 }, () => {
  beforeAll(setUp, 60_000);
  afterAll(tearDown);

  describe('against the demo agent', () => {
    const errors: PageErrors = { page: [], console: [] };
    const dialogs: string[] = [];
    let page: Page;
    let prefix = '';
    let sent: () => Promise<SentMessage[]>;
    let surfaceId: string | null = null;
    afterAll(() => page?.context().close());

    it('form …: the form drawn in the turn’s bubble, its data model’s choice checked', async () => {
      ({ page, prefix } = await threadPage('a2ui-demo', errors));
      sent = sentMessages(page, agent!.url);
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await send(page, 'form pick a drink');
      await waitForPhase(page, LAST, 'ended');
      const bubble = page.locator(LAST);
      expect(await bubble.getAttribute('data-outcome')).toBe('completed');
      expect(await bubble.locator('> .body').textContent()).toBe(DEMO_FORM_TEXT);
      const surface = bubble.locator('.surfaces a2ui-surface');
      await expect.poll(() => surface.locator('h3').textContent()).toBe(FORM_TITLE);
      expect(await surface.count()).toBe(1);
      expect(await surface.locator('label.a2ui-option-label').allTextContents()).toEqual(
        ['Tea', 'Coffee', 'Water'].map((label) => expect.stringContaining(label)),
      );
      expect(await surface.locator('input[type="radio"]:checked').evaluate((input: HTMLInputElement) => input.value)).toBe('tea');
      expect(await surface.locator('button', { hasText: FORM_BUTTON }).count()).toBe(1);
      surfaceId = await surface.getAttribute('data-surface-id');
      expect(surfaceId).toMatch(/^form-/);
      await mkdir(join(ROOT, 'test-output'), { recursive: true });
      await page.locator('#input').blur();
      await page.screenshot({ path: SHOT });
      console.log(`web chat A2UI screenshot: ${SHOT}`);
      const [form] = await sent();
      expect(form).toMatchObject({ extensions: A2UI_EXTENSION.v1, message: { metadata: { a2uiClientCapabilities: CAPABILITIES } } });
      expect({ dialogs, errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    });

    it('a choice and Submit send the action (surfaceAction, with the data model) as the next turn; the answer updates the form in place', async () => {
      await pickAndSubmit(page, 'Coffee', FORM_BUTTON);
      await expect.poll(() => page.locator('.msg.user').count()).toBe(2);
      expect(await page.locator('.msg.user').last().textContent()).toBe('Pressed “submit” {"choice":["coffee"]}');
      await waitForSettled(page);
      expect(await page.locator(`${LAST} > .note`).textContent()).toBe('');
      expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('completed');
      expect(await page.locator(`${LAST} > .body`).textContent()).toBe(`${choseText('coffee')}.`);
      // Updated where it was drawn: still one surface on the page, the first bubble's, now saying the choice.
      const form = page.locator('.msg.agent').first().locator('a2ui-surface');
      await expect.poll(() => surfaceText(form)).toContain(choseText('coffee'));
      expect(await page.locator('a2ui-surface').count()).toBe(1);
      expect(await page.locator(`${LAST} .surface-note`).count()).toBe(0);
      await page.screenshot({ path: ANSWERED_SHOT });
      console.log(`web chat A2UI screenshot, answered: ${ANSWERED_SHOT}`);

      const [, action] = await sent();
      expect(action!.extensions).toBe(A2UI_EXTENSION.v1);
      expect(action!.message['parts']).toEqual(actionParts(surfaceId!, 'coffee'));
      expect(action!.message['metadata']).toEqual({
        a2uiClientCapabilities: CAPABILITIES,
        a2uiClientDataModel: { version: 'v1.0', surfaces: { [surfaceId!]: { choice: ['coffee'] } } },
      });
      // The demo answered the action on its own surface.
      expect(agentLog.filter((line) => line.startsWith(prefix))).toEqual([`${prefix} turn 1 (form)`, `${prefix} turn 2 (form action)`]);
      expect({ dialogs, errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    });
  });

  describe('against the A2UI fixture agents', () => {
    let a2ui: A2UIPage;
    beforeAll(async () => {
      a2ui = await startA2UIAgents(browser!);
    }, 30_000);
    afterAll(() => a2ui?.close());

    it('the agent’s record: the form asked for with the page’s catalog, then the action and the data model the renderer held', async () => {
      const page = await a2ui.open('a2ui-record');
      await send(page, 'form');
      await waitForPhase(page, LAST, 'ended');
      await expect.poll(() => page.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
      const [surfaceId] = a2ui.agents.surfaces('v1', '/');
      expect(await page.locator('a2ui-surface').getAttribute('data-surface-id')).toBe(surfaceId);

      await pickAndSubmit(page, 'Water', FORM_BUTTON);
      await expect.poll(() => page.locator('.msg.agent').count()).toBe(2);
      await waitForSettled(page);
      expect(await page.locator(`${LAST} > .note`).textContent()).toBe('');
      await expect.poll(() => surfaceText(page.locator('a2ui-surface'))).toContain(choseText('water'));

      const record = a2ui.agents.record('v1', '/');
      expect(record).toHaveLength(2);
      for (const message of record) {
        expect(message.extensions).toEqual([A2UI_EXTENSION.v1]);
        expect(message.capabilities).toEqual(CAPABILITIES);
      }
      expect(record[1]!.message['parts']).toEqual(actionParts(surfaceId!, 'water'));
      expect(record[1]!.dataModel).toEqual({ version: 'v1.0', surfaces: { [surfaceId!]: { choice: ['water'] } } });
      expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    });

    it('a form the agent waits on, redrawn after a reload from the resumed turn’s surfaces and acted on there', async () => {
      const page = await a2ui.open('a2ui-reload');
      await send(page, 'form-status');
      await waitForPhase(page, LAST, 'ended');
      expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('input-required');
      await expect.poll(() => page.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
      const surfaceId = a2ui.agents.surfaces('v1', '/').at(-1);

      await page.reload();
      await page.waitForSelector('body[data-resume="found"]', { timeout: 10_000 });
      const resumed = page.locator('.msg.agent[data-resumed="true"]');
      await expect.poll(() => resumed.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);
      expect(await resumed.locator('a2ui-surface').getAttribute('data-surface-id')).toBe(surfaceId);
      expect(await page.locator('a2ui-surface').count()).toBe(1);
      const taskId = await resumed.getAttribute('data-task-id');

      await pickAndSubmit(page, 'Coffee', FORM_BUTTON);
      await expect.poll(() => page.locator('.msg.agent').count()).toBe(2);
      await waitForSettled(page);
      expect(await page.locator(`${LAST} > .note`).textContent()).toBe('');
      await expect.poll(() => surfaceText(resumed.locator('a2ui-surface'))).toContain(choseText('coffee'));
      expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('completed');
      // The action went on the task that waited for it.
      expect(await page.locator(LAST).getAttribute('data-task-id')).toBe(taskId);
      expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    });

    it('the agent SDK’s v0.9 form (one message per part) is drawn; a v0.8 form is not, and a note says why', async () => {
      const page = await a2ui.open('a2ui-dialects');
      await send(page, 'sdk-form');
      await waitForPhase(page, LAST, 'ended');
      await expect.poll(() => page.locator(`${LAST} a2ui-surface h3`).textContent()).toBe(FORM_TITLE);
      expect(await page.locator(`${LAST} .surface-note`).count()).toBe(0);
      await send(page, 'v08-form');
      await waitForPhase(page, LAST, 'ended');
      const notes = page.locator(`${LAST} .surface-note.undrawn`);
      await expect.poll(() => notes.count()).toBe(3);
      expect(await notes.first().textContent()).toMatch(
        /^Surface "v08-form-[0-9a-f]{8}" \(beginRendering\) was not drawn: it is A2UI v0\.8/,
      );
      expect(await page.locator(`${LAST} a2ui-surface`).count()).toBe(0);
      expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    });

    // The library refuses a surface message it checked (a note per refused message) or bounds the stream before any
    // check (an SSE event past 4 MB fails the turn, its note says so): which one depends on how the turn reached the task
    // (a large event ends the stream; the task read after it is checked message by message). Nothing of it is drawn.
    for (const [word, reason] of [
      ['evil-url', /URL a browser would run/],
      ['evil-deep', /nests deeper than 32 levels/],
      ['evil-tree', /larger than 1000000 characters|SSE event is larger than 4194304 characters/],
      ['evil-data', /nests deeper than 32 levels|larger than 1000000 characters|SSE event is larger than 4194304 characters/],
    ] as const) {
      it(`${word}: refused or bounded with a note, no script runs, and the page goes on`, async () => {
        const page = await a2ui.open(`a2ui-${word}`);
        await send(page, word);
        await waitForSettled(page, 20_000);
        const notes = async (): Promise<string> =>
          [
            ...(await page.locator(`${LAST} .surface-note.refused`).allTextContents()),
            await page.locator(`${LAST} > .note`).textContent(),
          ].join('\n');
        await expect.poll(notes).toMatch(reason);
        expect(await page.locator(`${LAST} a2ui-surface h3`).count()).toBe(0);
        // Nothing ran: no dialog, no error, and no attribute in the page (shadow roots too) holds a javascript: URL.
        expect(await scriptUrls(page)).toEqual([]);
        expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });

        // The page still sends and draws: a plain message, then a form.
        await send(page, 'hello after');
        await waitForPhase(page, LAST, 'ended');
        expect(await page.locator(`${LAST} > .body`).textContent()).toContain('hello after');
        await send(page, 'form');
        await waitForPhase(page, LAST, 'ended');
        await expect.poll(() => page.locator(`${LAST} a2ui-surface h3`).textContent()).toBe(FORM_TITLE);
        expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
      });
    }
  });
});
