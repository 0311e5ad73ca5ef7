/**
 * contextId derivations per second: what a client derives per turn (`createA2A().contextId()`: Web
 * Crypto, the HMAC key imported once per client), one at a time and 1,000 at a time; the standalone
 * `deriveContextId` (imports the key on every call); and, as the reference, node:crypto's
 * synchronous `createHmac` computing the same ids.
 */
import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { EMPTY } from 'rxjs';
import { CONTEXT_ID_DOMAIN, createA2A, deriveContextId, type A2APort } from 'a4h-a2a';
import { BENCH_SECRET } from './drivers/types.js';

export const IDENTITY_KINDS = ['client', 'client-batch', 'deriveContextId', 'node-hmac'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

const HANDLE = 'bench';
const keyOf = (i: number): string => `slack:T0123:C0456:1700000000.${String(i).padStart(6, '0')}`;
const utf8 = new TextEncoder();

/** The MAC input of the frozen construction (see src/identity/context-id.ts). */
function macInput(handle: string, key: string): Uint8Array<ArrayBuffer> {
  const h = utf8.encode(handle);
  const k = utf8.encode(key);
  const d = utf8.encode(CONTEXT_ID_DOMAIN);
  const out = new Uint8Array(d.length + 1 + 4 + h.length + 4 + k.length);
  const view = new DataView(out.buffer);
  out.set(d, 0);
  let at = d.length + 1;
  view.setUint32(at, h.length);
  out.set(h, at + 4);
  at += 4 + h.length;
  view.setUint32(at, k.length);
  out.set(k, at + 4);
  return out;
}

function asUuid(mac: Uint8Array): string {
  const id = mac.subarray(0, 16);
  id[6] = (id[6]! & 0x0f) | 0x80;
  id[8] = (id[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(id).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function deriver(kind: IdentityKind): Promise<(i: number) => Promise<string> | string> {
  switch (kind) {
    case 'client':
    case 'client-batch': {
      const unused = (): A2APort => ({
        card: () => EMPTY,
        send: () => EMPTY,
        stream: () => EMPTY,
        resubscribe: () => EMPTY,
        getTask: () => EMPTY,
        cancel: () => EMPTY,
      });
      const client = createA2A({ identitySecret: BENCH_SECRET, ports: unused });
      return (i) => client.contextId(HANDLE, keyOf(i));
    }
    case 'deriveContextId':
      return (i) => deriveContextId(BENCH_SECRET, HANDLE, keyOf(i));
    case 'node-hmac':
      return (i) =>
        asUuid(
          createHmac('sha256', BENCH_SECRET)
            .update(macInput(HANDLE, keyOf(i)))
            .digest(),
        );
  }
}

/** Derivations per second over `count` ids after `count / 10` unmeasured ones; each id checked once against a4h-a2a's. */
export async function identity(kind: IdentityKind, count: number) {
  const derive = await deriver(kind);
  for (let i = 0; i < 3; i++) {
    if ((await derive(i)) !== (await deriveContextId(BENCH_SECRET, HANDLE, keyOf(i))))
      throw new Error(`${kind} derives other ids than a4h-a2a`);
  }
  const run = async (from: number, to: number): Promise<void> => {
    if (kind === 'client-batch') {
      for (let start = from; start < to; start += 1000) {
        await Promise.all(Array.from({ length: Math.min(1000, to - start) }, (_, j) => derive(start + j)));
      }
    } else {
      for (let i = from; i < to; i++) await derive(i);
    }
  };
  await run(0, count / 10);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run(count, 2 * count);
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { kind, count, perSec: (count / wallMs) * 1000, cpuUsPerId: (used.user + used.system) / count };
}
