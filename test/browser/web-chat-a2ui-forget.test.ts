/**
 * The web chat forgets a removed bubble's surfaces, in Chromium, against the A2UI fixture agent: a
 * form the agent waits on (`form-status`), the page reloaded while the look for the reply in flight
 * fails (the agent answers that ListTasks with a 503), so the waiting task shows in the past, its form
 * drawn there; the person answers on it, the message's own look finds the task and continues it, the
 * past bubble leaves the page (its task is now this page's exchange), and the form is drawn again in
 * the exchange that continues it, the answer on it, once.
 */
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { FORM_BUTTON, FORM_TITLE, choseText } from '../../fixtures/a2ui-protocol.js';
import { buildWebChat } from '../../examples/web-chat/build.mjs';
import { launchChromium, send, waitForPhase } from './kit.js';
import { LAST, pickAndSubmit, startA2UIAgents, surfaceText, waitForSettled, type A2UIPage } from './web-chat-a2ui-kit.js';

/** The past's agent bubbles. */
const PAST = '.msg.agent[data-past="true"]';

/** The line Chromium logs for each response the fault refused. */
const REFUSED_LINE = 'Failed to load resource: the server responded with a status of 503 (Service Unavailable)';

/**
 * While armed, the agent answers with a 503, after `delayMs`, each ListTasks that looks for the
 * thread's unfinished task (it bounds the tasks by `statusTimestampAfter`; a page of the past does
 * not): the look for the reply in flight fails, the past still loads. Counts what it refused.
 */
function failingLook(): { handlers: RequestHandler[]; armed: boolean; delayMs: number; refused: number } {
  const fault = { handlers: [] as RequestHandler[], armed: false, delayMs: 0, refused: 0 };
  const parse = express.json({ type: ['application/json', 'application/a2a+json'] });
  fault.handlers.push(parse, (req, res, next) => {
    const body = req.body as { method?: unknown; params?: { statusTimestampAfter?: unknown } } | undefined;
    if (!fault.armed || body?.method !== 'ListTasks' || body.params?.statusTimestampAfter === undefined) return next();
    fault.refused++;
    setTimeout(() => res.status(503).type('text/plain').send('briefly unavailable'), fault.delayMs);
  });
  return fault;
}

describe('web chat: a bubble that leaves the page takes its surfaces with it', { timeout: 60_000 }, () => {
  let browser: Browser | undefined;
  let a2ui: A2UIPage;
  const fault = failingLook();
  beforeAll(async () => {
    await buildWebChat();
    browser = await launchChromium();
    a2ui = await startA2UIAgents(browser, fault.handlers);
  }, 60_000);
  afterAll(async () => {
    await a2ui?.close();
    await browser?.close();
  });

  // The look fails at once (before the past shows) or late (after it); the answer is pressed on the form, or typed.
  const cases = [
    { answer: 'pressed', delayMs: 0 },
    { answer: 'pressed', delayMs: 300 },
    { answer: 'typed', delayMs: 0 },
    { answer: 'typed', delayMs: 300 },
  ] as const;
  it.each(cases)(
    'a waiting task shown in the past, then continued ($answer, the look failing after $delayMs ms): its form drawn again in the exchange that continues it',
    async ({ answer, delayMs }) => {
      const thread = `a2ui-forget-${answer}-${delayMs}`;
      const page = await a2ui.open(thread);
      await send(page, 'form-status');
      await waitForPhase(page, LAST, 'ended');
      expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('input-required');
      const taskId = await page.locator(LAST).getAttribute('data-task-id');
      const surfaceId = a2ui.agents.surfaces('v1', '/').at(-1);

      Object.assign(fault, { armed: true, delayMs, refused: 0 });
      a2ui.errors.console.length = 0;
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await page.waitForSelector('body[data-resume="failed"]', { timeout: 10_000 });
      await page.waitForSelector('body[data-history="shown"]', { timeout: 10_000 });
      fault.armed = false;
      expect(fault.refused).toBeGreaterThan(0);
      // The waiting task is of the past: its form drawn in its bubble.
      const past = page.locator(PAST);
      expect(await past.count()).toBe(1);
      expect(await past.getAttribute('data-task-id')).toBe(taskId);
      await expect.poll(() => past.locator('a2ui-surface h3').textContent()).toBe(FORM_TITLE);

      if (answer === 'pressed') await pickAndSubmit(page, 'Coffee', FORM_BUTTON);
      else await send(page, 'coffee, please');
      await expect.poll(() => page.locator('.msg.user').count()).toBe(1);
      await waitForSettled(page);
      expect(await page.locator(LAST).getAttribute('data-outcome')).toBe('completed');
      // The message continued the waiting task (its own look found it): the past bubble left, the exchange shows the task now.
      expect(await page.locator(LAST).getAttribute('data-task-id')).toBe(taskId);
      expect(await page.locator(PAST).count()).toBe(0);
      // The form drawn again there, once (pressed: the answer on it; typed: as the question left it).
      const form = page.locator(`${LAST} a2ui-surface`);
      await expect.poll(() => form.count()).toBe(1);
      expect(await form.getAttribute('data-surface-id')).toBe(surfaceId);
      await expect.poll(() => form.locator('h3').textContent()).toBe(FORM_TITLE);
      if (answer === 'pressed') await expect.poll(() => surfaceText(form)).toContain(choseText('coffee'));
      expect(await page.locator('a2ui-surface').count()).toBe(1);
      expect(await page.locator('.surface-note').count()).toBe(0);
      // The only console lines: Chromium's, for the refused looks.
      expect(a2ui.errors.console).toEqual(Array.from({ length: fault.refused }, () => REFUSED_LINE));
      a2ui.errors.console.length = 0;
      expect({ dialogs: a2ui.dialogs, errors: a2ui.errors }).toEqual({ dialogs: [], errors: { page: [], console: [] } });
    },
  );
});
