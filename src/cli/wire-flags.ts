import type { InterfaceOrder, ProtocolBinding } from '../sdk/ports.js';
import { UsageError } from './io.js';

/**
 * The flags of how a command talks to its agent on the wire (the A2A CLI specification's §5.2, §11):
 * which bindings first, the oldest protocol version allowed, and `--debug`'s wire log on stderr.
 */
export const WIRE_OPTIONS = {
  transport: { type: 'string', multiple: true },
  'a2a-version': { type: 'string' },
  debug: { type: 'boolean' },
} as const;

/** The wire flags, parsed. */
export interface WireFlags {
  transport?: string[] | undefined;
  'a2a-version'?: string | undefined;
  debug?: boolean | undefined;
}

/** What the usages say of them. */
export const WIRE_USAGE = `  --transport BINDING    JSONRPC, HTTP+JSON or GRPC first (repeatable, in order; default: the card's order)
  --a2a-version V        the oldest protocol version allowed: 1.0 (default) or 0.3
  --debug                each request and answer on stderr (gRPC calls too), credentials redacted`;

const BINDINGS: Record<string, ProtocolBinding> = {
  JSONRPC: 'JSONRPC',
  'JSON-RPC': 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  REST: 'HTTP+JSON',
  GRPC: 'GRPC',
};

/**
 * The interface choice of the specification (§11): the card's order, the `--transport` bindings first in
 * the order given, and `--a2a-version` the oldest protocol version allowed (default 1.0: a v0.3 agent only
 * with `--a2a-version 0.3`).
 */
export function interfaceOrderOf(flags: { transport?: string[] | undefined; 'a2a-version'?: string | undefined }): InterfaceOrder {
  const prefer = (flags.transport ?? []).map((name) => {
    const binding = BINDINGS[name.toUpperCase()];
    if (binding === undefined) throw new UsageError(`--transport takes JSONRPC, HTTP+JSON or GRPC, not "${name}"`);
    return binding;
  });
  const version = flags['a2a-version'] ?? '1.0';
  if (!/^(0\.3|1\.\d+)$/.test(version)) throw new UsageError(`--a2a-version takes 1.0 (the default) or 0.3, not "${version}"`);
  return { ...(prefer.length > 0 ? { prefer } : {}), minVersion: version };
}
