/** The web chat example's tiny signals and its state (chat.ts), in Node. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computed, effect, signal } from '../../examples/web-chat/src/signals.js';
import { build } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { writeFile } from 'node:fs/promises';
import { endWith, interval, map, of, startWith, take } from 'rxjs';
import { createA2A, type A2AClient, type TurnView } from '../../src/index.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { ROOT, SECRET } from './web-chat-kit.js';

describe('web chat signals', () => {
  const tick = (): Promise<void> => new Promise((resolve) => queueMicrotask(resolve));

  it('computed is lazy and cached; effects run at once, then once per batch of changes', async () => {
    const a = signal(1);
    const b = signal(10);
    let computations = 0;
    const sum = computed(() => {
      computations++;
      return a() + b();
    });
    expect(computations).toBe(0);
    expect([sum(), sum()]).toEqual([11, 11]);
    expect(computations).toBe(1);
    const seen: number[] = [];
    const stop = effect(() => {
      seen.push(sum());
    });
    expect(seen).toEqual([11]);
    a.set(2);
    b.update((value) => value + 1);
    expect(seen).toEqual([11]); // not yet: effects run in a microtask
    await tick();
    expect(seen).toEqual([11, 13]);
    a.set(2); // equal: nobody hears
    await tick();
    expect(seen).toEqual([11, 13]);
    stop();
    a.set(5);
    await tick();
    expect(seen).toEqual([11, 13]);
    expect(sum.peek()).toBe(16);
  });

  it('tracks dependencies per run (a branch not taken is not a dependency)', async () => {
    const useB = signal(false);
    const a = signal('a');
    const b = signal('b');
    const runs: string[] = [];
    effect(() => {
      runs.push(useB() ? b() : a());
    });
    b.set('b2'); // not read yet
    await tick();
    expect(runs).toEqual(['a']);
    useB.set(true);
    await tick();
    a.set('a2'); // no longer read
    await tick();
    expect(runs).toEqual(['a', 'b2']);
  });
});

describe('web chat state (chat.ts), in Node', () => {
  /** What the test reads of the bundle (typed here: chat.ts imports `a4h-a2a`, which only the page's build resolves). */
  interface BundledChat {
    createChat(
      config: { agent: string; thread: string; contextId: string },
      client: A2AClient,
    ): { canSend(): boolean; exchanges(): readonly { view: TurnView }[]; send(text: string): void };
    effect(run: () => void): () => void;
  }

  /** chat.ts and its signals, bundled as the page bundles them (`a4h-a2a` is the library's source), rxjs left to Node. */
  async function bundledChat(): Promise<BundledChat> {
    const src = join(ROOT, 'examples', 'web-chat', 'src');
    const result = await build({
      stdin: { contents: "export * from './chat.ts'; export * from './signals.ts';", resolveDir: src, loader: 'ts' },
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      alias: { 'a4h-a2a': join(ROOT, 'src', 'index.ts') },
      packages: 'external',
      logLevel: 'silent',
    });
    const out = join(ROOT, 'test-output', 'web-chat-state.mjs');
    await mkdir(join(ROOT, 'test-output'), { recursive: true });
    await writeFile(out, result.outputFiles[0]!.text);
    return import(pathToFileURL(out).href);
  }

  it('a long reply changes the exchange a few times (coalesced), not once per chunk, and ends with the whole reply', async () => {
    const chunks = 100;
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () =>
        interval(1).pipe(
          take(chunks),
          map((i) => ev.artifact('T', 'a', 'x', { append: i > 0, lastChunk: i === chunks - 1 })),
          startWith(ev.task('T', 'working')),
          endWith(ev.status('T', 'completed')),
        ),
    });
    const { createChat, effect: pageEffect } = await bundledChat();
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    const chat = createChat({ agent: 'http://127.0.0.1:1/', thread: 'coalesce', contextId: 'ctx-coalesce' }, client);
    await expect.poll(() => chat.canSend()).toBe(true); // the look for a reply in flight is done
    const views = new Set<unknown>();
    pageEffect(() => {
      const view = chat.exchanges().at(-1)?.view;
      if (view !== undefined) views.add(view);
    });
    chat.send('a long one, please');
    await expect.poll(() => chat.exchanges().at(-1)?.view.phase, { timeout: 5_000 }).toBe('ended');
    expect(chat.exchanges().at(-1)?.view.reply).toBe('x'.repeat(chunks));
    expect(views.size).toBeLessThan(chunks / 4);
    await client.close();
  });
});
