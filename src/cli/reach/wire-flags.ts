import type { InterfaceOrder, ProtocolBinding } from '../../node/index.js';
import { UsageError } from '../core/io.js';

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
  --a2a-version V        the oldest protocol version allowed: 1.0 (default) or 0.3, which admits every
                         version before 1.0 (a card that says 0.1 or 0.2 is spoken to as 0.3; 0.1 and 0.2
                         are taken as 0.3); A2ACLI_A2A_VERSION, or that line in a config file, when not given
  --debug                each request and answer on stderr (gRPC calls too), credentials redacted`;

const BINDINGS: Record<string, ProtocolBinding> = {
  JSONRPC: 'JSONRPC',
  'JSON-RPC': 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  REST: 'HTTP+JSON',
  GRPC: 'GRPC',
};

/** Where a configured `--a2a-version` came from and what it says (the configuration's setting, resolved). */
export interface ConfiguredVersion {
  /** The value, when a source gave one. */
  value?: string | readonly string[] | undefined;
  /** `environment A2ACLI_A2A_VERSION`, `file /path/.env`, `default`. */
  source: string;
}

/**
 * The interface choice of the specification (§11): the card's order, the `--transport` bindings first in
 * the order given, and `--a2a-version` the oldest protocol version allowed: the flag, else `configured`
 * (its variable, a config file's line), else 1.0. The versions before 1.0 are one generation (the SDK
 * speaks them all on the v0.3 wire): `0.1`, `0.2` and `0.3` all allow it, as 0.3.
 */
export function interfaceOrderOf(
  flags: { transport?: string[] | undefined; 'a2a-version'?: string | undefined },
  configured?: ConfiguredVersion,
): InterfaceOrder {
  const prefer = (flags.transport ?? []).map((name) => {
    const binding = BINDINGS[name.toUpperCase()];
    if (binding === undefined) throw new UsageError(`--transport takes JSONRPC, HTTP+JSON or GRPC, not "${name}"`);
    return binding;
  });
  const fromConfig = flags['a2a-version'] === undefined && typeof configured?.value === 'string';
  const version = (flags['a2a-version'] ?? (fromConfig ? (configured!.value as string) : '1.0')).trim();
  const match = /^(0\.[1-3]|1\.\d+)(?:\.\d+)?$/.exec(version);
  if (match === null) {
    const where = fromConfig ? `${configured!.source}: ` : '';
    throw new UsageError(`${where}--a2a-version takes 1.0 (the default) or 0.3 (0.1 and 0.2 are taken as 0.3), not "${version}"`);
  }
  const minVersion = match[1]!.startsWith('0.') ? '0.3' : match[1]!;
  return { ...(prefer.length > 0 ? { prefer } : {}), minVersion };
}
