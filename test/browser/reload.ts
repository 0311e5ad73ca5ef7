/**
 * What the reload tests share: the texts a reply bubble showed across page loads, and the demo
 * agent's whole reply and log lines for one thread.
 */
import type { Page } from 'playwright-core';
import { slowReply } from '../../demo/reply.js';

/** The demo agent's whole reply to `said`, a `slow` message that is its thread's first. */
export const wholeSlowReply = (said: string): string => slowReply(said.trim(), { turn: 1, earlier: [] });

/** The demo agent's log lines for the contextId whose prefix is `prefix`. */
export const linesOf = (agentLog: readonly string[], prefix: string): string[] => agentLog.filter((line) => line.startsWith(`${prefix} `));

/**
 * Records, on every load of `page` from now on, each text the `.body` of the bubble `selector`
 * shows (an init script with a MutationObserver). `texts()` reads the current load's record: a
 * reply shown twice, or restarted, would leave a text that is no prefix of the whole reply.
 */
export async function recordReplyTexts(page: Page, selector: string): Promise<{ texts: () => Promise<string[]> }> {
  await page.addInitScript((selector: string) => {
    const seen: string[] = [];
    (globalThis as { replyTexts?: string[] }).replyTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector(selector)?.querySelector('.body')?.textContent ?? '';
      if (text !== '' && text !== seen.at(-1)) seen.push(text);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, selector);
  return { texts: () => page.evaluate(() => [...((globalThis as { replyTexts?: string[] }).replyTexts ?? [])]) };
}
