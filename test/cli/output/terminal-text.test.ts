/** The one sanitizer of agent text (src/cli/output/terminal-text.ts) and the live printer, as an attacker would try them. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../src/cli/core/io.js';
import { TurnPrinter } from '../../../src/cli/turns/printer.js';
import { styleFor } from '../../../src/cli/core/style.js';
import { terminalJson, terminalLine, terminalName, terminalText } from '../../../src/cli/output/terminal-text.js';

/** Anything a terminal acts on: ESC, BEL, another C0 control but tab and newline, DEL, a C1 control. */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('terminalText and terminalLine', () => {
  const cases: [string, string, string, string][] = [
    // [what, the agent's text, as terminalText shows it, as terminalLine shows it]
    ['CSI clear screen', 'a\x1b[2Jb', 'ab', 'ab'],
    ['CSI with parameters and an intermediate', 'a\x1b[?1049hb\x1b[1 qc', 'abc', 'abc'],
    ['OSC 52 clipboard write, BEL-terminated', 'a\x1b]52;c;SGVsbG8=\x07b', 'ab', 'ab'],
    ['OSC 0 window title, ST-terminated', 'a\x1b]0;pwned\x1b\\b', 'ab', 'ab'],
    ['OSC 8 hyperlink', '\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\', 'click', 'click'],
    ['DCS, APC, PM, SOS', 'a\x1bPq#0\x1b\\b\x1b_x\x07c\x1b^y\x1b\\d\x1bXz\x1b\\e', 'abcde', 'abcde'],
    ['8-bit CSI', 'a\u009b2Jb', 'ab', 'ab'],
    ['8-bit OSC with 8-bit ST', 'a\u009d0;x\u009cb', 'ab', 'ab'],
    ['8-bit OSC with BEL', 'a\u009d52;c;SGVsbG8=\u0007b', 'ab', 'ab'],
    ['an unterminated OSC: its introducer goes, the rest is text', 'a\x1b]0;title', 'a0;title', 'a0;title'],
    ['a two-byte escape (RIS) and a lone ESC', 'a\x1bcb\x1b', 'ab', 'ab'],
    ['a lone CR, which would overwrite the line', 'safe\rEVIL', 'safe\nEVIL', 'safe EVIL'],
    ['CRLF', 'a\r\nb', 'a\nb', 'a b'],
    ['BEL, backspace, DEL, NEL and other C1', 'a\x07\x08b\x7fc\u0085d\u0090\u009fe', 'abcde', 'abcde'],
    ['tab and newline', 'a\tb\nc', 'a\tb\nc', 'a b c'],
    ['text of any script', 'héllo ✓ مرحبا 你好', 'héllo ✓ مرحبا 你好', 'héllo ✓ مرحبا 你好'],
  ];
  it.each(cases)('%s', (_what, text, shown, line) => {
    expect(terminalText(text)).toBe(shown);
    expect(terminalLine(text)).toBe(line);
    expect(terminalText(text)).not.toMatch(ACTIVE);
  });

  it('every split of a sequence (a stream chunk each side) leaves nothing active', () => {
    const text = 'a\x1b]52;c;SGVsbG8=\x07b\u009b2Jc\x1b[2Jd';
    for (let i = 0; i <= text.length; i++) {
      expect(terminalText(text.slice(0, i)) + terminalText(text.slice(i))).not.toMatch(ACTIVE);
    }
  });

  it('is linear on many unterminated introducers', () => {
    const text = '\u009d'.repeat(200_000) + '\x1b]'.repeat(200_000);
    const start = performance.now();
    expect(terminalText(text)).toBe('');
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('terminalName: a file name without bidi controls', () => {
    expect(terminalName('invoice\u202efdp.exe\u2066x\u2069\u200e')).toBe('invoicefdp.exex');
  });

  it('terminalJson: DEL and C1 escaped, the same value to a JSON reader', () => {
    const value = { name: 'a\u009b2J\u009d0;x\u009cb\x7f', ok: 'é' };
    const json = terminalJson(JSON.stringify(value));
    expect(json).not.toMatch(ACTIVE);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('the live printer: the reply as it streams, its own erase and colour codes only', () => {
  it('a streamed reply carrying sequences is written as text, chunk by chunk', () => {
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const io: Io = { out, err: new PassThrough(), style: styleFor({ isTTY: true }, {}), live: true, env: {} };
    const printer = new TurnPrinter(io);
    const chunks = ['hello \x1b]52;c;SGVs', 'bG8=\x07world\x1b[2J', '\u009b2J\rdone'];
    for (const text of chunks) printer.show({ type: 'text', text, replace: false });
    printer.show({ type: 'end', text: chunks.join(''), outcome: 'completed' } as Parameters<TurnPrinter['show']>[0]);
    // The whole reply differs from its chunks sanitized one by one (a sequence split between two shows
    // as text): the printer erases them with its own codes, the only ones written, and writes it whole.
    expect(written.replace(/\x1b\[\d*A|\r\x1b\[J/g, '')).not.toMatch(ACTIVE);
    expect(written).toMatch(/\r\x1b\[J(hello world\ndone\n)$/);
  });
});
