import fc from 'fast-check';
import { of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { platformEdits, splitReply, type PlatformEdit } from '../../src/render/platform.js';

/** A platform that takes every request at once. */
const taken = () => of(null);
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const post = (message: number, text: string): PlatformEdit => ({ kind: 'post', message, text });
const edit = (message: number, text: string): PlatformEdit => ({ kind: 'edit', message, text });

describe('a reply as requests to a chat platform', () => {
  // Each case: the reply's texts as they come, the platform's length limit, the requests it gets.
  const cases: { title: string; reply: string; texts: Record<string, string>; maxLength: number; requests: string; edits: Record<string, PlatformEdit> }[] = [
    {
      title: 'the first text posts at once; the texts of one window become one edit with the latest; the end waits its turn',
      // Ten requests a second: one per 100 ms.
      reply: '   a 9ms b 9ms c 9ms |',
      texts: { a: 'He', b: 'Hell', c: 'Hello' },
      maxLength: 100,
      requests: 'a 99ms (b|)',
      edits: {
        a: post(0, 'He'),
        b: edit(0, 'Hello'),
      },
    },
    {
      title: 'a quiet stretch sends nothing; the next text goes at once when its turn came',
      reply: '   a 299ms b 9ms |',
      texts: { a: 'One', b: 'One two' },
      maxLength: 100,
      requests: 'a 299ms b 9ms |',
      edits: {
        a: post(0, 'One'),
        b: edit(0, 'One two'),
      },
    },
    {
      title: 'past the length limit the message keeps its part (cut at a space) and the rest goes in a new one',
      reply: '   a 9ms b 9ms |',
      texts: { a: 'alpha beta', b: 'alpha beta gamma delta' },
      maxLength: 12,
      requests: 'a 99ms b 99ms (c|)',
      edits: {
        a: post(0, 'alpha beta'),
        b: edit(0, 'alpha beta '),
        c: post(1, 'gamma delta'),
      },
    },
    {
      title: 'a correction that shortens the reply edits what changed and deletes the message left over',
      reply: '   a 9ms b 199ms c 9ms |',
      texts: { a: 'aaaa bbbb', b: 'aaaa bbbb cccc', c: 'xx' },
      maxLength: 10,
      requests: 'a 99ms b 99ms c 99ms d 99ms (e|)',
      edits: {
        a: post(0, 'aaaa bbbb'),
        b: edit(0, 'aaaa bbbb '),
        c: post(1, 'cccc'),
        d: edit(0, 'xx'),
        e: { kind: 'delete', message: 1, text: '' },
      },
    },
  ];
  for (const { title, reply: diagram, texts, maxLength, requests, edits } of cases) {
    it(title, () => {
      scheduler().run(({ cold, expectObservable }) => {
        const reply = cold(diagram, texts);
        expectObservable(reply.pipe(platformEdits({ maxLength, perSecond: 10, send: taken }))).toBe(requests, edits);
      });
    });
  }

  it('a slow platform: the next request waits for the one on its way, and carries the text of then (no backlog)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      // Each request takes 250 ms: longer than the 100 ms pace.
      const slow = () => cold('250ms (x|)', { x: null });
      const reply = cold('a 49ms b 49ms c 49ms d 49ms e 49ms |', { a: '1', b: '12', c: '123', d: '1234', e: '12345' });
      // While the post is on its way every other text arrived: one edit with the whole reply follows.
      expectObservable(reply.pipe(platformEdits({ maxLength: 100, perSecond: 10, send: slow }))).toBe('250ms a 249ms (b|)', {
        a: post(0, '1'),
        b: edit(0, '12345'),
      });
    });
  });

  it("a request the platform refuses fails the stream with the platform's error", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const refused = () => throwError(() => new Error('403 forbidden'));
      const reply = cold('a|', { a: 'hi' });
      expectObservable(reply.pipe(platformEdits({ maxLength: 100, perSecond: 10, send: refused }))).toBe('#', undefined, new Error('403 forbidden'));
    });
  });

  it('leaving stops the pacing: no request after unsubscribe', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const reply = cold('a 9ms b 500ms |', { a: 'a', b: 'ab' });
      expectObservable(reply.pipe(platformEdits({ maxLength: 10, perSecond: 10, send: taken })), '^ 50ms !').toBe('a', { a: post(0, 'a') });
    });
  });

  it('whatever the reply does, at the end the messages hold exactly it, each within the limit, and the pace held', () => {
    const names = 'abcdefghijkl';
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(300), fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é'), maxLength: 40 })), {
          minLength: 1,
          maxLength: names.length,
        }),
        fc.integer({ min: 3, max: 30 }),
        (steps, maxLength) => {
          let reply = '';
          const values: Record<string, string> = {};
          const diagram = steps.map(([gap, chunk], i) => {
            values[names[i]!] = reply += chunk;
            return i === 0 ? names[i] : `${gap}ms ${names[i]}`;
          });
          const requests: { at: number; edit: PlatformEdit }[] = [];
          const test = scheduler();
          test.run(({ cold }) => {
            const source = cold(`${diagram.join(' ')} |`, values);
            source.pipe(platformEdits({ maxLength, perSecond: 5, send: taken })).subscribe((edit) => requests.push({ at: test.now(), edit }));
          });
          const messages: string[] = [];
          for (const { edit: e } of requests) {
            if (e.kind === 'delete') messages.pop();
            else messages[e.message] = e.text;
          }
          expect(messages.join('')).toBe(reply);
          expect(messages).toEqual(splitReply(reply, maxLength));
          expect(messages.every((m) => m.length <= maxLength)).toBe(true);
          expect(requests.every((r, i) => i === 0 || r.at - requests[i - 1]!.at >= 200)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
