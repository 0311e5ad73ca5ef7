/**
 * The web chat's A2UI test against the A2UI fixture agents: the fixture hosts (with the demo's CORS, so
 * the page on another port may call them), the example's server pointed at the v1.0 host's main agent,
 * and pages on it that record their errors and every dialog a script opened; what the tests do on a page's surfaces.
 */
import type { RequestHandler } from 'express';
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startA2UIAgent, type A2UIAgents } from '../../fixtures/agent-a2ui.js';
import type { HostOptions } from '../../fixtures/http-host.js';
import { cors } from '../../demo/cors.js';
import { startWebChatServer } from '../../examples/web-chat/server.mjs';
import { openPage, type PageErrors } from './kit.js';
import { SECRET } from './web-chat-kit.js';

/** The fixture agents, the example's server on them, and what the pages opened on it recorded. */
export interface A2UIPage {
  agents: A2UIAgents;
  /** Every page's uncaught and console errors. */
  errors: PageErrors;
  /** Every dialog (alert, confirm, prompt) a page opened, by its message. */
  dialogs: string[];
  /** A fresh page on thread `thread` (`query`: more of the URL's query, e.g. `&page=1`), ready, its past shown. */
  open(thread: string, query?: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts the fixture agents (v1.0 host: its main agent, `/`, draws) and the example's server on them;
 * `before`: more handlers in front of every route, after the demo's CORS (a fault a test arms).
 */
export async function startA2UIAgents(browser: Browser, before: readonly RequestHandler[] = []): Promise<A2UIPage> {
  // startA2UIAgent hands its options to each host: the demo's CORS goes in front of every route.
  const hostOptions: HostOptions = { before: [cors, ...before] };
  const agents = await startA2UIAgent(hostOptions);
  const server = await startWebChatServer({ port: 0, agent: agents.v1.url('/'), secret: SECRET });
  const errors: PageErrors = { page: [], console: [] };
  const dialogs: string[] = [];
  const pages: Page[] = [];
  return {
    agents,
    errors,
    dialogs,
    async open(thread, query = '') {
      const page = await openPage(browser, errors);
      pages.push(page);
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${server.url}?thread=${thread}${query}`);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await page.waitForSelector('body[data-history="shown"]', { timeout: 10_000 });
      return page;
    },
    async close() {
      await Promise.all(pages.map((page) => page.context().close()));
      await server.close();
      await agents.close();
    },
  };
}

/** The last agent bubble. */
export const LAST = '.msg.agent:last-of-type';

/** Picks `label` on the page's last drawn form (its radio checked) and presses its button, `button`. */
export async function pickAndSubmit(page: Page, label: string, button: string): Promise<void> {
  const surface = page.locator('a2ui-surface').last();
  await surface.locator('label', { hasText: label }).click();
  await expect
    .poll(() => surface.locator('input[type="radio"]:checked').evaluate((input: HTMLInputElement) => input.value))
    .toBe(label.toLowerCase());
  await surface.locator('button', { hasText: button }).click();
}

/** The texts a drawn surface shows (its Text components, in its shadow root), one a line. */
export async function surfaceText(surface: Locator): Promise<string> {
  return (await surface.locator('a2ui-basic-text').allTextContents()).join('\n');
}

/** Waits until the last agent bubble's turn is over: ended or failed. */
export async function waitForSettled(page: Page, timeout = 10_000): Promise<void> {
  await page.waitForFunction((last) => /^(ended|error)$/.test(document.querySelector(last)?.getAttribute('data-phase') ?? ''), LAST, {
    timeout,
  });
}

/** Every attribute in the page, its shadow roots included, whose value holds a `javascript:` URL. */
export function scriptUrls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walk = (root: Document | ShadowRoot): void => {
      for (const element of root.querySelectorAll('*')) {
        for (const attribute of element.attributes)
          if (/javascript:/i.test(attribute.value)) found.push(`${element.tagName} ${attribute.name}`);
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document);
    return found;
  });
}

/** A message the page sent an agent, read off the browser's request: the message and the extensions it activated. */
export interface SentMessage {
  message: Record<string, unknown>;
  extensions: string | undefined;
}

/** The messages `page` sends to the agent at `agentUrl` from now on (JSON-RPC requests that carry one), in order. */
export function sentMessages(page: Page, agentUrl: string): () => Promise<SentMessage[]> {
  const sent: Promise<SentMessage>[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().startsWith(agentUrl)) return;
    const body = request.postDataJSON() as { params?: { message?: Record<string, unknown> } } | null;
    const message = body?.params?.message;
    if (message === undefined) return;
    sent.push(request.allHeaders().then((headers) => ({ message, extensions: headers['a2a-extensions'] })));
  });
  return () => Promise.all(sent);
}
