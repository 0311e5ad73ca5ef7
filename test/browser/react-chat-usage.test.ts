/**
 * The React chat example's usage line (examples/react-chat: `useChat` with the transport of
 * `a4h-a2a/ai-sdk`, `message.metadata.usage`) in headless Chromium against the usage fixture agents on
 * loopback: each convention's numbers under its reply, equal to what the fixture says the turn cost; an
 * agent that reports nothing, no usage line; after a reload, the same numbers from the thread's history.
 *
 * Needs Chromium at /usr/bin/chromium and the built library (`npm run build`), as react-chat.test.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cors } from '../../demo/cors.js';
import { startUsageAgent, type UsageAgents } from '../../fixtures/agent-usage.js';
import { USAGE_CONVENTIONS, type ExpectedUsage } from '../../fixtures/usage-conventions.js';
import { buildReactChat } from '../../examples/react-chat/build.mjs';
import { startReactChatServer, type ReactChatServer } from '../../examples/react-chat/server.mjs';
import { launchChromium, openPage, send, waitForPhase, type PageErrors } from './kit.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'react-chat-usage-test-secret-0123456789';
const LAST_REPLY = '.msg.agent:last-of-type';

let agents: UsageAgents | undefined;
let streaming: ReactChatServer | undefined;
let blocking: ReactChatServer | undefined;
let browser: Browser | undefined;
const errors: PageErrors = { page: [], console: [] };

/** What the reply's usage line shows, figure by figure, as the fixture states a turn's usage; undefined when there is no line. */
async function shownUsage(page: Page, reply = page.locator(LAST_REPLY)): Promise<ExpectedUsage | undefined> {
  if ((await reply.locator('.usage').count()) === 0) return undefined;
  const figure = async (name: string) => {
    const value = reply.locator(`.usage [data-figure="${name}"]`);
    return (await value.count()) === 0
      ? undefined
      : await value.evaluate((element) => ({ number: element.querySelector('b')!.textContent!, text: element.textContent! }));
  };
  const shown: ExpectedUsage = {};
  const [input, output, total, cost] = await Promise.all(['in', 'out', 'total', 'cost'].map(figure));
  if (input) shown.inputTokens = Number(input.number);
  if (output) shown.outputTokens = Number(output.number);
  if (total) shown.totalTokens = Number(total.number);
  if (cost) {
    const currency = /^cost \S+ ([A-Z]{3})$/.exec(cost.text)?.[1];
    shown.cost = currency === undefined ? { amount: Number(cost.number) } : { amount: Number(cost.number), currency };
  }
  return shown;
}

/** A fresh page on `thread` of `server`, its chat shown. */
async function threadPage(server: ReactChatServer, thread: string): Promise<Page> {
  const page = await openPage(browser!, errors);
  await page.goto(`${server.url}?thread=${thread}`);
  await page.waitForSelector('#input', { timeout: 10_000 });
  return page;
}

describe('react chat example: a reply’s usage, against agents that report it, in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/index.js is missing: run `npm run build` first');
    // The page talks to the agent from another origin: the demo agent's CORS before the fixture's routes
    // (startUsageAgent hands its options to the host, whose `before` takes it; its own type does not say so).
    agents = await startUsageAgent({ before: [cors] });
    await buildReactChat();
    streaming = await startReactChatServer({ port: 0, agent: agents.v1.url('/'), secret: SECRET });
    blocking = await startReactChatServer({ port: 0, agent: agents.v1.url('/blocking/'), secret: SECRET });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await streaming?.close();
    await blocking?.close();
    await agents?.close();
  });

  for (const mode of ['streaming', 'blocking'] as const) {
    it(`${mode}: each convention's numbers under its reply, as the fixture expects; none reported, no usage line`, async () => {
      const server = mode === 'streaming' ? streaming! : blocking!;
      const page = await threadPage(server, `usage-${mode}`);
      for (const [word, convention] of Object.entries(USAGE_CONVENTIONS)) {
        const before = await page.locator('.msg.agent').count();
        await send(page, word);
        await expect.poll(() => page.locator('.msg.agent').count()).toBe(before + 1);
        await waitForPhase(page, LAST_REPLY, 'ended');
        expect(await page.locator(LAST_REPLY).getAttribute('data-outcome')).toBe('completed');
        expect([word, await shownUsage(page)]).toEqual([word, convention.expected]);
      }
      expect(await page.locator('.msg.agent .usage').count()).toBe(Object.values(USAGE_CONVENTIONS).filter((c) => c.expected).length);
      expect(errors).toEqual({ page: [], console: [] });
    });
  }

  it("after a reload, each reply's usage from the thread's history: the same numbers; none, none", async () => {
    const page = await threadPage(streaming!, 'usage-reload');
    const words = ['openrouter', 'priced', 'none', 'redpanda'];
    for (const [index, word] of words.entries()) {
      await send(page, word);
      await expect.poll(() => page.locator('.msg.agent').count()).toBe(index + 1);
      await waitForPhase(page, LAST_REPLY, 'ended');
    }
    await page.reload();
    await page.waitForSelector('#input', { timeout: 10_000 });
    await expect.poll(() => page.locator('.msg.agent').count()).toBe(words.length);
    const replies = page.locator('.msg.agent');
    const shown = await Promise.all(words.map((_, index) => shownUsage(page, replies.nth(index))));
    expect(shown).toEqual(words.map((word) => USAGE_CONVENTIONS[word]!.expected));
    expect(errors).toEqual({ page: [], console: [] });
  });
});
