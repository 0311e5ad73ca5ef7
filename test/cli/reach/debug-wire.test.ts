/**
 * `--debug`'s wire log, as lines: an HTTP call and a gRPC call numbered together, a gRPC call's
 * credentials redacted like a header's, its bytes shown as their size, its status with its time.
 */
import { describe, expect, it } from 'vitest';
import { wireLog } from '../../../src/cli/reach/debug.js';
import type { Io } from '../../../src/cli/core/io.js';

function io(): Io & { text(): string } {
  let err = '';
  const sink = { write: (chunk: string) => ((err += chunk), true) };
  return { out: sink, err: sink, env: {}, text: () => err } as unknown as Io & { text(): string };
}

describe('the wire log of a gRPC call', () => {
  it('method, metadata (credentials redacted), messages both ways, the answer and its status', async () => {
    const where = io();
    const log = wireLog(where);
    await log.fetch(async () => new Response('{}', { status: 200 }))('http://127.0.0.1:1/.well-known/agent-card.json');
    log.grpc({
      call: 7,
      kind: 'start',
      method: '/lf.a2a.v1.A2AService/SendMessage',
      metadata: [
        ['authorization', 'Bearer secret-token-123'],
        ['x-api-key', 'key-456'],
        ['a2a-version', '1.0'],
      ],
    });
    log.grpc({ call: 7, kind: 'send', message: { message: { parts: [{ raw: new Uint8Array(5) }] }, big: 12n } });
    log.grpc({ call: 7, kind: 'metadata', metadata: [['content-type', 'application/grpc+proto']] });
    log.grpc({ call: 7, kind: 'receive', message: { payload: { $case: 'task' } } });
    log.grpc({ call: 7, kind: 'status', code: 16, name: 'UNAUTHENTICATED', details: 'no' });
    // An event of a call whose start was not seen is not shown (nothing to number it by).
    log.grpc({ call: 8, kind: 'receive', message: {} });
    const text = where.text();
    expect(text).toContain('a4h: debug: #1 → GET http://127.0.0.1:1/.well-known/agent-card.json');
    expect(text).toContain('a4h: debug: #2 → GRPC /lf.a2a.v1.A2AService/SendMessage');
    expect(text).toContain('a4h: debug: #2   authorization: [redacted]');
    expect(text).toContain('a4h: debug: #2   x-api-key: [redacted]');
    expect(text).toContain('a4h: debug: #2   a2a-version: 1.0');
    expect(text).toContain('a4h: debug: #2   → {"message":{"parts":[{"raw":"(5 bytes)"}]},"big":"12"}');
    expect(text).toContain('a4h: debug: #2   content-type: application/grpc+proto');
    expect(text).toContain('a4h: debug: #2   ← {"payload":{"$case":"task"}}');
    expect(text).toMatch(/a4h: debug: #2 ← UNAUTHENTICATED no \(\d+ ms\)\n$/);
    expect(text).not.toContain('secret-token-123');
    expect(text).not.toContain('key-456');
  });
});

describe('the wire log of bodies: every credential member redacted, both ways', () => {
  const SECRETS = {
    access: 'at-3f9a1c7e5b',
    refresh: 'rt-8d2e4f6a0c',
    id: 'idt-1b3d5f7a9c',
    clientSecret: 'cs-7e6d5c4b3a',
    deviceCode: 'dc-0a9b8c7d6e',
    push: 'push-token-5a4b3c2d1e',
    pushCredentials: 'push-cred-9f8e7d6c5b',
    assertion: 'assert-2c4e6a8b0d',
  };

  it('a token request (a form) and its answer (JSON, pretty-printed), an SSE event, a push config of each generation, a gRPC message', async () => {
    const where = io();
    const log = wireLog(where);
    const tokenAnswer = JSON.stringify(
      { access_token: SECRETS.access, refresh_token: SECRETS.refresh, id_token: SECRETS.id, token_type: 'Bearer', expires_in: 60 },
      null,
      2,
    );
    await (
      await log.fetch(async () => new Response(tokenAnswer, { status: 200 }))('http://127.0.0.1:1/token', {
        method: 'POST',
        body: `grant_type=client_credentials&client_id=cli&client_secret=${SECRETS.clientSecret}&client_assertion=${SECRETS.assertion}`,
      })
    ).text();
    await (
      await log.fetch(async () => new Response(`{"access_token":"${SECRETS.access}","token_type":"Bearer"}`))('http://127.0.0.1:1/token', {
        method: 'POST',
        body: `grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=${SECRETS.deviceCode}&client_id=cli`,
      })
    ).text();
    // v1.0: CreateTaskPushNotificationConfig's request and answer; its SSE form too.
    const v1Config = {
      taskId: 't1',
      id: 'c1',
      url: 'http://h/',
      token: SECRETS.push,
      authentication: { scheme: 'Bearer', credentials: SECRETS.pushCredentials },
    };
    const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'CreateTaskPushNotificationConfig', params: v1Config });
    await (
      await log.fetch(async () => new Response(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: v1Config })}\n\n`))(
        'http://127.0.0.1:1/rpc',
        {
          method: 'POST',
          body: rpc,
        },
      )
    ).text();
    // v0.3: tasks/pushNotificationConfig/get's answer, the credentials an object of another server's making.
    const v03Config = {
      taskId: 't1',
      pushNotificationConfig: {
        id: 'c1',
        url: 'http://h/',
        token: SECRETS.push,
        authentication: { schemes: ['Bearer'], credentials: SECRETS.pushCredentials },
      },
    };
    await (
      await log.fetch(async () => new Response(JSON.stringify({ jsonrpc: '2.0', id: 2, result: v03Config })))('http://127.0.0.1:1/rpc')
    ).text();
    // A broken document: the members found where they stand.
    await (
      await log.fetch(
        async () => new Response(`{"token": "${SECRETS.push}", "authentication": {"credentials": {"k": "${SECRETS.pushCredentials}"}`),
      )('http://127.0.0.1:1/rpc')
    ).text();
    log.grpc({ call: 1, kind: 'start', method: '/lf.a2a.v1.A2AService/CreateTaskPushNotificationConfig', metadata: [] });
    log.grpc({ call: 1, kind: 'send', message: v1Config });
    log.grpc({ call: 1, kind: 'receive', message: { ...v1Config, token: SECRETS.push } });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the answers' bodies are logged as they arrive
    const text = where.text();
    for (const [name, value] of Object.entries(SECRETS)) expect(text, name).not.toContain(value);
    expect(text).toContain('client_secret=[redacted]');
    expect(text).toContain('device_code=[redacted]');
    expect(text).toContain('"access_token": "[redacted]"');
    expect(text).toContain('"token_type":"Bearer"');
    expect(text).toContain(`data: {"jsonrpc":"2.0","id":1,"result":{"taskId":"t1","id":"c1","url":"http://h/","token":"[redacted]"`);
    expect(text).toContain('"authentication":{"schemes":["Bearer"],"credentials":"[redacted]"}');
    expect(text).toContain('"method":"CreateTaskPushNotificationConfig"');
  });
});

describe('the wire log of what an agent sends', () => {
  it('is text for the terminal: no escape sequence, C1 control or line break of the agent reaches it', async () => {
    const where = io();
    const log = wireLog(where);
    const hostile = 'ok\u001b]52;c;SGVsbG8=\u0007 \u009b2J \u001b[2J\rdone';
    const body = `data: {"text":"${hostile.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"}\n${hostile}\n`;
    await log.fetch(async () => new Response(body, { status: 200, headers: { 'x-agent': 'a\u0080b' } }))('http://127.0.0.1:1/a2a');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the body is logged as it arrives
    const text = where.text();
    expect(text).toContain('done');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});
