import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { UsageError, type Io } from '../../../src/cli/core/io.js';
import { classifyError, errorEnvelope, exitStatusOf } from '../../../src/cli/output/envelope.js';
import { hintFor } from '../../../src/cli/output/hints.js';
import { outputFormat, reportFailure, writeRecord } from '../../../src/cli/output/output.js';
import { eventRecord, taskRecord } from '../../../src/cli/output/text.js';
import { styleFor } from '../../../src/cli/core/style.js';
import { ev } from '../../../src/testing/index.js';

function memoryIo(): Io & { stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { out, err, style: styleFor({}), live: false, env: {}, stdout: () => stdout, stderr: () => stderr };
}

const sdkTyped = (name: string): Error => Object.assign(new Error('refused'), { name });

describe('the error envelope: A2A names for the agent, A2ACLI_ERR_* for the CLI, one exit status each', () => {
  const cases: [string, unknown, string, number][] = [
    ['a usage mistake', new UsageError('bad flag'), 'A2ACLI_ERR_USAGE', 2],
    ['an option out of range', new A2AError({ kind: 'config', message: 'x' }), 'A2ACLI_ERR_USAGE', 2],
    ['no card at the reference', new A2AError({ kind: 'card', status: 404, message: 'no agent card' }), 'A2ACLI_ERR_CARD_NOT_FOUND', 3],
    ['a card that is not one', new A2AError({ kind: 'card', message: 'malformed' }), 'A2ACLI_ERR_CARD_INVALID', 1],
    [
      'a card host that refuses connections',
      new A2AError({
        kind: 'card',
        message: 'could not fetch',
        cause: Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      }),
      'A2ACLI_ERR_UNREACHABLE',
      3,
    ],
    ['a dropped connection', new A2AError({ kind: 'network', message: 'reset' }), 'A2ACLI_ERR_UNREACHABLE', 3],
    ['no credential sent', new A2AError({ kind: 'auth', message: '401', auth: { sent: 'none' } }), 'A2ACLI_ERR_CREDENTIALS_MISSING', 4],
    [
      'a credential refused',
      new A2AError({ kind: 'auth', message: '401', auth: { sent: 'a bearer token (Authorization header)' } }),
      'A2ACLI_ERR_AUTH_FAILED',
      4,
    ],
    ['a bound run out', new A2AError({ kind: 'timeout', message: 'slow', phase: 'turn' }), 'A2ACLI_ERR_TIMEOUT', 5],
    [
      'the SDK typed error on any binding',
      new A2AError({ kind: 'protocol', message: 'no', cause: sdkTyped('TaskNotCancelableError') }),
      'TaskNotCancelableError',
      1,
    ],
    ['a JSON-RPC code', new A2AError({ kind: 'protocol', code: -32005, message: 'no' }), 'ContentTypeNotSupportedError', 1],
    ['a task the agent does not know (any binding)', new A2AError({ kind: 'task-not-found', message: 'gone' }), 'TaskNotFoundError', 1],
    [
      'an extension the agent says it requires',
      new A2AError({ kind: 'input', code: -32008, message: 'ext' }),
      'ExtensionSupportRequiredError',
      1,
    ],
    ['a malformed answer', new A2AError({ kind: 'protocol', message: 'bad json' }), 'A2ACLI_ERR_INTERNAL', 1],
    ['anything else', new Error('boom'), 'A2ACLI_ERR_INTERNAL', 1],
  ];
  for (const [what, error, code, exit] of cases) {
    it(`${what}: ${code}, exit ${exit}`, () => expect(classifyError(error)).toMatchObject({ code, exit }));
  }

  it('-o json: one envelope document on stdout (code, message, hint, a2aCode), the diagnostic on stderr', () => {
    const io = memoryIo();
    const exit = reportFailure(
      io,
      { format: 'json', stream: false },
      new A2AError({ kind: 'task-not-found', code: -32001, message: 'gone' }),
      {
        command: 'send',
      },
    );
    expect(exit).toBe(1);
    expect(JSON.parse(io.stdout())).toEqual({
      error: { code: 'TaskNotFoundError', message: 'gone', hint: expect.stringContaining('--debug'), a2aCode: -32001 },
    });
    expect(io.stderr()).toContain('Error: TaskNotFoundError\n');
  });

  it('-o json --stream: the envelope is one line; text: nothing on stdout, fields on stderr', () => {
    const streamed = memoryIo();
    expect(
      reportFailure(streamed, { format: 'json', stream: true }, new A2AError({ kind: 'timeout', message: 'slow' }), {
        command: 'send',
        taskId: 't1',
        agent: 'http://a',
      }),
    ).toBe(5);
    expect(streamed.stdout().split('\n')).toHaveLength(2);
    expect(JSON.parse(streamed.stdout()).error.hint).toBe('the task goes on at the agent: a4h task get t1 -a http://a --wait');
    const text = memoryIo();
    expect(reportFailure(text, { format: 'text', stream: false }, new UsageError('bad'), { command: 'send' })).toBe(2);
    expect(text.stdout()).toBe('');
    expect(text.stderr()).toBe('Error: A2ACLI_ERR_USAGE\nMessage: bad\nHint: a4h send --help\n');
  });

  it("an agent's not now (503 with Retry-After): unreachable (exit 3); the hint says when to try again; the status is the a2aCode", () => {
    const error = new A2AError({ kind: 'http', status: 503, retryAfterMs: 120_000, message: 'Service Unavailable' });
    expect(exitStatusOf(error)).toBe(3);
    expect(errorEnvelope(error, hintFor(error, { command: 'send' }))).toEqual({
      error: {
        code: 'A2ACLI_ERR_UNREACHABLE',
        message: 'Service Unavailable',
        hint: 'the agent asks to be tried again in 120 s',
        a2aCode: 503,
      },
    });
  });

  it('-o takes text or json only', () => {
    expect(outputFormat(undefined)).toBe('text');
    expect(outputFormat('json')).toBe('json');
    expect(() => outputFormat('yaml')).toThrow(UsageError);
  });
});

describe('the text floor: Label: value lines, then blocks closed by a blank line', () => {
  it('a task: its ids and state, its artifacts as blocks, every part shown, no control sequence', () => {
    const io = memoryIo();
    const task = ev.task('t1', 'completed', { contextId: 'c1', message: 'done\u001b[31m' }).task;
    task.artifacts = [
      {
        artifactId: 'a1',
        name: 'reply',
        parts: [
          { kind: 'text', text: 'line 1\n\nline 3' },
          { kind: 'data', data: { n: 1 } },
          { kind: 'file', name: 'f.pdf', mediaType: 'application/pdf', bytes: new Uint8Array(3) },
        ],
      },
    ];
    writeRecord(io, taskRecord(task));
    expect(io.stdout()).toBe(
      'Task ID: t1\nContext ID: c1\nState: TASK_STATE_COMPLETED\n' +
        'Status Message:\ndone\n\n' + // the whole sequence gone, not its ESC alone
        'Artifact: reply\nline 1\n \nline 3\n{\n  "n": 1\n}\n[file] f.pdf (application/pdf, 3 bytes)\n\n',
    );
  });

  it('a status event is a record of its own: fields then a blank line; a sign of life is none', () => {
    const io = memoryIo();
    writeRecord(io, eventRecord(ev.status('t1', 'working'))!);
    expect(io.stdout()).toBe('Task ID: t1\nState: TASK_STATE_WORKING\n\n');
    expect(eventRecord({ kind: 'alive' })).toBeUndefined();
  });
});

describe('the hints of an OAuth client that got no token', () => {
  it('a token endpoint that did not answer in time: check it, not raise --timeout', () => {
    const error = new A2AError({ kind: 'timeout', message: 'the token endpoint https://idp.example/token did not answer in time' });
    expect(hintFor(error, { command: 'send' })).toMatch(
      /^the token endpoint did not answer in time: is it up, and the right one \(--oauth-token-url\)\?/,
    );
    expect(hintFor(new A2AError({ kind: 'timeout', message: 'no first event' }), { command: 'send' })).toBe('raise --timeout');
  });

  it("the card's token URL on another origin: name it if it is yours; a refused client: check the client", () => {
    const elsewhere = new A2AError({
      kind: 'auth',
      auth: { sent: 'none' },
      message:
        'the OAuth client configured for https://a.example cannot get a token: the token URL https://idp.example/t?x=1 of the card\'s scheme "oauth" is on another origin than the agent (https://a.example), so the client secret is not sent there',
    });
    expect(hintFor(elsewhere, { command: 'send' })).toBe(
      "if 'https://idp.example/t?x=1' is your identity provider's token endpoint, name it: --oauth-token-url 'https://idp.example/t?x=1'",
    );
    const refused = new A2AError({
      kind: 'auth',
      auth: { sent: 'none' },
      message: 'the token endpoint https://idp.example/token refused the client credentials request (HTTP 401, error "invalid_client")',
    });
    expect(hintFor(refused, { command: 'send' })).toMatch(/^check the OAuth client \(--oauth-client-id, --oauth-client-secret-env\)/);
  });
});
