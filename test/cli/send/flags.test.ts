import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/core/io.js';
import { durationMs } from '../../../src/cli/core/options.js';
import { SEND_OPTIONS } from '../../../src/cli/commands/send/command.js';
import { foldTask } from '../../../src/cli/commands/send/fold.js';
import { modeOf } from '../../../src/cli/commands/send/flags.js';
import { modeFromArgs } from '../../../src/cli/core/command.js';
import { interfaceOrderOf } from '../../../src/cli/reach/wire-flags.js';
import { partFlags } from '../../../src/cli/commands/send/parts.js';
import { ev } from '../../../src/testing/index.js';

describe("send's flags, read", () => {
  it('part flags in command-line order, each --media-type bound to the part flag right before it', () => {
    const args = [
      'http://a/',
      '--text',
      'a',
      '--media-type',
      'text/markdown',
      '-o',
      'json',
      '--data',
      '-',
      '--file',
      'x.bin',
      '--media-type',
      'application/pdf',
    ];
    expect(partFlags(args, SEND_OPTIONS)).toEqual([
      { flag: 'text', value: 'a', mediaType: 'text/markdown' },
      { flag: 'data', value: '-' },
      { flag: 'file', value: 'x.bin', mediaType: 'application/pdf' },
    ]);
  });

  it('--media-type after another flag, twice for one part, or not a type: a usage error', () => {
    for (const args of [
      ['--text', 'a', '-o', 'json', '--media-type', 'text/plain'],
      ['--text', 'a', '--media-type', 'text/plain', '--media-type', 'text/html'],
      ['--file', 'x', '--media-type', 'pdf'],
    ]) {
      expect(() => partFlags(args, SEND_OPTIONS), args.join(' ')).toThrow(UsageError);
    }
  });

  it('durations: seconds, or with a unit; nothing else', () => {
    expect([
      durationMs('timeout', '30', 1e9),
      durationMs('timeout', '0.5', 1e9),
      durationMs('timeout', '500ms', 1e9),
      durationMs('timeout', '2m', 1e9),
    ]).toEqual([30_000, 500, 500, 120_000]);
    for (const bad of ['soon', '0', '-1', '1d']) expect(() => durationMs('timeout', bad, 1e9)).toThrow(UsageError);
  });

  it('the output mode: --json alone, --async without --stream; -o json found in the arguments before they parse', () => {
    expect(modeOf({ output: 'json', stream: true })).toEqual({ format: 'json', stream: true });
    expect(() => modeOf({ json: true, output: 'json' })).toThrow(UsageError);
    expect(() => modeOf({ async: true, stream: true })).toThrow(UsageError);
    expect(modeFromArgs(['x', '-o', 'json', '--bogus'], true)).toEqual({ format: 'json', stream: false });
    expect(modeFromArgs(['x', '--output=json', '--stream'], true)).toEqual({ format: 'json', stream: true });
  });

  it('--transport in the order given (names as cards spell them, any case); --a2a-version 1.0 by default, 0.3 by name', () => {
    expect(interfaceOrderOf({ transport: ['grpc', 'HTTP+JSON'] })).toEqual({ prefer: ['GRPC', 'HTTP+JSON'], minVersion: '1.0' });
    expect(interfaceOrderOf({ 'a2a-version': '0.3' })).toEqual({ minVersion: '0.3' });
    expect(() => interfaceOrderOf({ 'a2a-version': '0.4' })).toThrow(UsageError);
    expect(() => interfaceOrderOf({ 'a2a-version': '2.0' })).toThrow(UsageError);
  });

  it('--a2a-version 0.1 and 0.2 are the generation before 1.0, as 0.3; else the configured value (its variable, a file), named when bad', () => {
    for (const version of ['0.1', '0.2', '0.2.0', '0.3.0'])
      expect(interfaceOrderOf({ 'a2a-version': version }), version).toEqual({ minVersion: '0.3' });
    expect(interfaceOrderOf({ 'a2a-version': '1.1' })).toEqual({ minVersion: '1.1' });
    const configured = { value: '0.3', source: 'environment A2ACLI_A2A_VERSION' };
    expect(interfaceOrderOf({}, configured)).toEqual({ minVersion: '0.3' });
    expect(interfaceOrderOf({ 'a2a-version': '1.0' }, configured)).toEqual({ minVersion: '1.0' });
    expect(interfaceOrderOf({}, { source: 'default' })).toEqual({ minVersion: '1.0' });
    expect(() => interfaceOrderOf({}, { value: 'latest', source: 'file /home/me/.env' })).toThrow(
      'file /home/me/.env: --a2a-version takes 1.0 (the default) or 0.3',
    );
  });
});

describe('foldTask: the updates of a stream on its last snapshot', () => {
  it('the status replaced, a chunk appended to its artifact or put in its place, another task’s left out', () => {
    let task = ev.task('t1', 'working').task;
    for (const event of [
      ev.artifact('t1', 'a', 'Hello, '),
      ev.artifact('t1', 'a', 'world', { append: true }),
      ev.artifact('t1', 'b', 'x'),
      ev.artifact('t1', 'b', 'y'),
      ev.artifact('t2', 'a', 'stranger'),
      ev.status('t1', 'completed'),
    ]) {
      task = foldTask(task, event);
    }
    expect(task.status.state).toBe('completed');
    expect(task.artifacts.map((artifact) => artifact.parts.map((part) => (part.kind === 'text' ? part.text : '')).join(''))).toEqual([
      'Hello, world',
      'y',
    ]);
  });
});
