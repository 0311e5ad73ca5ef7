/**
 * The Angular chat example (examples/angular) in headless Chromium against the A2A 1.1 fixture agent
 * (its main mount, one request for input per question, answers held 150 ms): the agent's question shows
 * as a question (`chat.interrupt()`), on the page that asked and on a second page of the same thread
 * (`resume()` at start); both answer at once through `chat.answer` (the question's task, its requests for
 * input, its generation): one answer completes the task, the other page says the question was
 * answered already (a `conflict`), and the agent's record shows one answer accepted.
 *
 * The build is the one angular.test.ts makes (angular-build.ts). Needs the example installed
 * (`node examples/angular/setup.mjs install`) and Chromium at /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { cors } from '../../demo/cors.js';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { bookedReply, INPUT_QUESTION } from '../../fixtures/texts.js';
import type { ExampleBackend } from '../../examples/backend.mjs';
import { startAngularChatServer } from '../../examples/angular/server.mjs';
import { builtAngularExample } from './angular-build.js';
import { launchChromium, openThreadPage, send, waitForPhase, type PageErrors } from './kit.js';

const SECRET = 'angular-interrupt-test-secret-not-for-production';
const THREAD = 'angular-two-tabs';
const LATEST = '.msg.agent.latest';
const READY = 'main[data-resuming="false"][data-history="shown"]';
const ANSWERED_ALREADY = 'This question was answered already.';

let agent: V11Agent | undefined;
let server: ExampleBackend | undefined;
let browser: Browser | undefined;
const pages: Page[] = [];
const errors: PageErrors = { page: [], console: [] };

/** A page of its own on the thread, its resume and its past at start settled. */
async function threadPage(): Promise<Page> {
  const { page } = await openThreadPage(browser, server?.url, SECRET, THREAD, errors, '', READY);
  pages.push(page);
  return page;
}

/** What a page's latest bubble shows. */
async function latest(page: Page) {
  const bubble = page.locator(LATEST);
  return {
    phase: await bubble.getAttribute('data-phase'),
    outcome: await bubble.getAttribute('data-outcome'),
    taskId: await bubble.getAttribute('data-task-id'),
    asks: await bubble.getAttribute('data-asks'),
    question: await bubble.locator('.asks').count(),
    body: await bubble.locator('.body').textContent(),
  };
}

/** Waits until the page drew the turn of its answer `text` and that turn is no longer running. */
async function settledAnswer(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    ({ text, selector }) =>
      [...document.querySelectorAll('.msg.user')].at(-1)?.textContent?.trim() === text &&
      ['ended', 'error'].includes(document.querySelector(selector)?.getAttribute('data-phase') ?? ''),
    { text, selector: LATEST },
    { timeout: 15_000 },
  );
}

const status = (page: Page) => page.locator('[data-testid="status"]').textContent();

describe('Angular chat example: the agent’s question answered from two pages at once (A2A 1.1 fixture)', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await builtAngularExample();
    // The page talks to the agent from another origin: the demo agent's CORS in front of the fixture's routes.
    agent = await startV11Agent({ elicitations: 'one', answerDelayMs: 150, before: [cors] });
    server = await startAngularChatServer({ port: 0, agent: agent.url(V11_MOUNTS.main), secret: SECRET });
    browser = await launchChromium();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await agent?.close();
  });

  let taskId = '';
  let asker: Page;
  let other: Page;

  it('the question shows as a question, and the form answers it', async () => {
    asker = await threadPage();
    await send(asker, 'input');
    await waitForPhase(asker, LATEST, 'ended');
    const shown = await latest(asker);
    expect(shown).toMatchObject({ phase: 'ended', outcome: 'input-required', asks: 'input', question: 1, body: INPUT_QUESTION });
    taskId = shown.taskId ?? '';
    expect(taskId).not.toBe('');
    expect(await asker.locator('#send').textContent()).toContain('Answer');
    expect(await status(asker)).toBe('The agent asks: answer below');
    expect(agent!.elicitations(taskId)).toEqual({ [`${taskId}/q1`]: 'ELICITATION_STATE_BLOCKED' });
  });

  it('a second page of the thread shows the same question (resume at start)', async () => {
    other = await threadPage();
    await expect
      .poll(() => latest(other))
      .toMatchObject({ phase: 'ended', outcome: 'input-required', taskId, asks: 'input', body: INPUT_QUESTION });
    expect(await other.locator('#send').isEnabled()).toBe(true);
  });

  it('both answer at once: one completes the task, the other says the question was answered already; the agent accepted one answer', async () => {
    const answers = new Map([
      [asker, 'Paris'],
      [other, 'Rome'],
    ]);
    await Promise.all([...answers].map(([page, text]) => page.fill('#input', text)));
    await Promise.all([...answers].map(([page]) => page.click('#send')));
    await Promise.all([...answers].map(([page, text]) => settledAnswer(page, text)));

    const ends = await Promise.all([...answers].map(async ([page, text]) => ({ page, text, shown: await latest(page) })));
    const completed = ends.filter((end) => end.shown.phase === 'ended');
    const refused = ends.filter((end) => end.shown.phase === 'error');
    expect(completed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const [won] = completed;
    const [lost] = refused;
    expect(won!.shown).toMatchObject({ outcome: 'completed', taskId, asks: null, body: bookedReply(won!.text) });
    expect(await status(won!.page)).toBe('Done');
    expect(await lost!.page.locator(`${LATEST} [data-testid="answered-already"]`).textContent()).toBe(ANSWERED_ALREADY);
    expect(await status(lost!.page)).toBe(ANSWERED_ALREADY);
    expect(lost!.shown).toMatchObject({ taskId, asks: null });

    // The agent's record: one answer accepted on the task, naming its request for input and the question's generation;
    // the other refused by the precondition (-32010) or, when the task had moved already, never sent; no task of its own.
    const sends = agent!.record.of('SendStreamingMessage');
    const toTask = agent!.record.of('SendStreamingMessage', taskId);
    const accepted = toTask.filter((request) => request.refused === undefined);
    expect(accepted).toHaveLength(1);
    const params = accepted[0]!.params as { message: { elicitationIds?: string[] }; configuration?: { ifGenerationMatch?: string } };
    expect(params.message.elicitationIds).toEqual([`${taskId}/q1`]);
    expect(params.configuration?.ifGenerationMatch).toMatch(/^\d+$/);
    expect(toTask.filter((request) => request.refused !== undefined).every((request) => request.refused === -32010)).toBe(true);
    expect(sends).toHaveLength(1 + toTask.length); // the question's, and the answers to its task: nothing else
    expect(agent!.elicitations(taskId)).toEqual({ [`${taskId}/q1`]: 'ELICITATION_STATE_RESOLVED' });
  });

  it('the pages logged no error', async () => {
    await Promise.all(pages.map((page) => page.context().close()));
    expect(errors.page).toEqual([]);
    expect(errors.console).toEqual([]);
  });
});
