/**
 * The snippet of docs/ui.md's "Renders a screen can afford" runs as written: its imports are checked
 * against the core entry and rxjs, and it runs (TypeScript stripped by esbuild) over a client whose
 * agent streams a long reply, its stores recording what they are given.
 */
import { transform } from 'esbuild';
import { readFileSync } from 'node:fs';
import * as rxjs from 'rxjs';
import { interval, map, of, startWith, take, endWith, type Observable } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import * as core from '../src/index.js';
import type { Transcript, TurnEvent, TurnView } from '../src/index.js';
import { createFakePort, ev, testCard } from '../src/testing/index.js';

const CHUNKS = 60;
const modules: Record<string, Record<string, unknown>> = { 'a4h-a2a': core, rxjs };

/** The first ```ts block after `heading` in docs/ui.md. */
function snippet(heading: string): string {
  const page = readFileSync(new URL('../docs/ui.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf(heading));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`no ts block after ${heading}`);
  return block;
}

/** A client whose agent answers each message with CHUNKS chunks of "x", one every 3 ms. */
function client(): core.A2AClient {
  const port = createFakePort({
    card: () => of(testCard()),
    stream: (_message, n) =>
      interval(3).pipe(
        take(CHUNKS),
        map((i) => ev.artifact(`T${n}`, 'a', 'x', { append: i > 0, lastChunk: i === CHUNKS - 1 })),
        startWith(ev.task(`T${n}`, 'working')),
        endWith(ev.status(`T${n}`, 'completed')),
      ),
  });
  return core.createA2A({ identitySecret: 'a ui docs test secret, 32 bytes!', ports: () => port });
}

describe('docs/ui.md: Renders a screen can afford', () => {
  it('the snippet runs: each store gets a few views, the first running, the last the whole reply', async () => {
    const code = snippet('## Renders a screen can afford');
    const bindings: Record<string, unknown> = {};
    for (const [, names, from] of code.matchAll(/^import \{ ([^}]+) \} from '([^']+)';$/gm)) {
      for (const name of names!.split(',').map((n) => n.trim())) {
        expect(modules[from!]?.[name], `${name} from ${from}`).toBeDefined();
        bindings[name] = modules[from!]![name];
      }
    }
    const { code: js } = await transform(code.replace(/^import .*$/gm, ''), { loader: 'ts' });

    const a2a = client();
    const target = { agent: 'http://127.0.0.1:1/', handle: 'docs', text: 'hi' };
    const seen = { views: [] as TurnView[], transcripts: [] as Transcript[], rendered: [] as TurnView[] };
    const store = { set: (value: TurnView | Transcript) => ('turns' in value ? seen.transcripts : seen.views).push(value as never) };
    const events$: Observable<TurnEvent> = a2a.turn({ ...target, thread: 'docs-own' });
    const scope = {
      ...bindings,
      ...target,
      a2a: { turn: (input: core.TurnInput) => a2a.turn({ ...input, thread: `${input.thread}-${input.text}` }) },
      thread: 'docs',
      messages$: of('one', 'two'),
      events$,
      store,
      render: (view: TurnView) => seen.rendered.push(view),
    };
    new Function(...Object.keys(scope), js)(...Object.values(scope));

    await vi.waitFor(
      () => {
        expect(seen.views.at(-1)?.phase).toBe('ended');
        expect(seen.rendered.at(-1)?.phase).toBe('ended');
        expect(seen.transcripts.at(-1)?.turns.map((turn) => turn.view.phase)).toEqual(['ended', 'ended']);
      },
      { timeout: 5_000 },
    );
    const reply = 'x'.repeat(CHUNKS);
    for (const views of [seen.views, seen.rendered]) {
      // One view per event would be more than CHUNKS; coalesced, about one per 50 ms of a reply of about 200 ms.
      expect(views.length).toBeLessThan(CHUNKS / 2);
      expect(views[0]?.phase).toBe('running');
      expect(views.at(-1)).toMatchObject({ phase: 'ended', reply });
    }
    expect(seen.transcripts.length).toBeLessThan(CHUNKS);
    expect(seen.transcripts.at(-1)?.turns.map((turn) => turn.view.reply)).toEqual([reply, reply]);
    await a2a.close();
  });
});
