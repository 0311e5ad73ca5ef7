/**
 * `--debug`'s wire log, as lines: an HTTP call and a gRPC call numbered together, a gRPC call's
 * credentials redacted like a header's, its bytes shown as their size, its status with its time.
 */
import { describe, expect, it } from 'vitest';
import { wireLog } from '../../src/cli/debug.js';
import type { Io } from '../../src/cli/io.js';

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
