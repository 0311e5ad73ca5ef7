import { concat, lastValueFrom, of, Subject, throwError, toArray, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import { emptyTranscript, threadTranscript } from '../../src/render/transcript.js';
import type { TurnEvent } from '../../src/port/events.js';

const reply = (text: string): Observable<TurnEvent> => {
  const events: TurnEvent[] = [{ type: 'start' }, { type: 'text', text, replace: false }, { type: 'end', outcome: 'completed', text }];
  return of(...events);
};

describe('threadTranscript', () => {
  it('folds successive turns into one transcript, in order', async () => {
    const all = await lastValueFrom(
      of('hi', 'again').pipe(
        threadTranscript((text) => reply(`re: ${text}`)),
        toArray(),
      ),
    );
    expect(all[0]).toEqual(emptyTranscript);
    const last = all.at(-1)!;
    expect(last.busy).toBe(false);
    expect(last.turns.map((t) => [t.user, t.view.reply, t.view.outcome])).toEqual([
      ['hi', 're: hi', 'completed'],
      ['again', 're: again', 'completed'],
    ]);
  });

  it('without coalesceMs (or with 0) yields one transcript per event, as it comes', async () => {
    for (const options of [undefined, {}, { coalesceMs: 0 }]) {
      const all = await lastValueFrom(
        of('hi').pipe(
          threadTranscript(() => reply('ok'), options),
          toArray(),
        ),
      );
      expect(all.map((t) => t.turns[0]?.view.reply)).toEqual([undefined, '', 'ok', 'ok']);
    }
  });

  it('runs a message only after the previous turn ended, and is busy meanwhile', () => {
    const first = new Subject<TurnEvent>();
    const started: string[] = [];
    const seen: { busy: boolean; n: number }[] = [];
    of('one', 'two')
      .pipe(threadTranscript((text) => (started.push(text), text === 'one' ? first : reply('two!'))))
      .subscribe((t) => seen.push({ busy: t.busy, n: t.turns.length }));
    first.next({ type: 'start' });
    expect(started).toEqual(['one']);
    expect(seen.at(-1)).toEqual({ busy: true, n: 1 });
    first.next({ type: 'end', outcome: 'completed', text: 'one!' });
    first.complete();
    expect(started).toEqual(['one', 'two']);
    expect(seen.at(-1)).toEqual({ busy: false, n: 2 });
  });

  it('a failed turn shows its error and the thread goes on', async () => {
    const failure = new A2AError({ kind: 'network', message: 'down' });
    const last = await lastValueFrom(
      of('x', 'y').pipe(
        threadTranscript((text) =>
          text === 'x'
            ? concat(
                of<TurnEvent>({ type: 'start' }),
                throwError(() => failure),
              )
            : reply('ok'),
        ),
      ),
    );
    expect(last.turns[0]?.view).toMatchObject({ phase: 'error', error: failure });
    expect(last.turns[1]?.view).toMatchObject({ phase: 'ended', reply: 'ok' });
  });
});
