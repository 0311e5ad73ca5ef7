import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { acceptsMediaType, checkInputModes, checkOutgoingParts } from '../src/port/outgoing.js';
import { createFakePort, ev, testCard } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';

/** What a message can carry besides text, refused with `input` errors that name the part, never its content. */
const bytes = Uint8Array.of(1, 2, 3);

describe('files and data a message sends', () => {
  it.each([
    ['no media type', [{ name: 'a', bytes }], /file 1 \(a\) needs a media type/],
    ['a media type that is no type/subtype', [{ mediaType: 'png', bytes }], /needs a media type/],
    ['both bytes and uri', [{ mediaType: 'image/png', bytes, uri: 'https://x.example/a' }], /exactly one of bytes and uri/],
    ['neither', [{ mediaType: 'image/png' }], /exactly one of bytes and uri/],
    ['bytes that are no Uint8Array', [{ mediaType: 'image/png', bytes: 'AAAA' }], /bytes must be a Uint8Array/],
    ['a relative uri', [{ mediaType: 'image/png', uri: '/a.png' }], /absolute URL/],
  ])('refuses %s', (_, files, message) => {
    expect(() => checkOutgoingParts(files, undefined, 1_000)).toThrow(
      expect.objectContaining({ kind: 'input', message: expect.stringMatching(message) }),
    );
  });

  it('refuses data that is no JSON, and more than maxAttachmentBytes in all', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => checkOutgoingParts(undefined, [{ data: cyclic }], 1_000)).toThrow(/data part 1 is not JSON/);
    expect(() => checkOutgoingParts([{ mediaType: 'image/png', bytes }], [{ data: { a: 1 } }], 9)).toThrow(
      /larger than 9 bytes \(maxAttachmentBytes\)/,
    );
    expect(() => checkOutgoingParts([{ mediaType: 'image/png', bytes }], [{ data: { a: 1 } }], 10)).not.toThrow();
  });

  it('matches media types without parameters or case, and type/* and */* wildcards', () => {
    expect(acceptsMediaType(['image/*'], 'IMAGE/PNG')).toBe(true);
    expect(acceptsMediaType(['text/plain'], 'text/plain; charset=utf-8')).toBe(true);
    expect(acceptsMediaType(['*/*'], 'application/zip')).toBe(true);
    expect(acceptsMediaType(['text/plain', 'image/*'], 'application/pdf')).toBe(false);
  });

  it('takes the card’s default input modes and its skills’; a card naming none takes anything', () => {
    const card = { ...testCard(), defaultInputModes: ['text/plain'], skills: [{ id: 's', name: 's', inputModes: ['application/pdf'] }] };
    expect(() => checkInputModes(card, [{ mediaType: 'application/pdf', bytes }], undefined)).not.toThrow();
    expect(() => checkInputModes(card, undefined, [{ data: 1 }])).toThrow(/does not accept application\/json/);
    expect(() => checkInputModes(testCard(), [{ mediaType: 'application/zip', bytes }], [{ data: 1 }])).not.toThrow();
  });

  it('the ladder sends files and data to the port; an empty text goes with them, not alone', async () => {
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('ok')) });
    const files = [{ mediaType: 'image/png', name: 'a.png', bytes }];
    await lastValueFrom(runTurn(port, { text: '', files, data: [{ data: { a: 1 } }] }).pipe(toArray()));
    expect(port.calls.find((c) => c.method === 'stream')).toMatchObject({ message: { text: '', files, data: [{ data: { a: 1 } }] } });
    await expect(lastValueFrom(runTurn(port, { text: ' ' }))).rejects.toMatchObject({
      kind: 'input',
      message: 'the message text is empty',
    });
  });
});
