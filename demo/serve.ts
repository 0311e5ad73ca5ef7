/**
 * Runs the a4h demo agent on its own, so any A2A client can be pointed at it:
 *
 *     node dist/demo/serve.js [--port 41241] [--host 127.0.0.1] [--v03] [--grpc] [--memory FILE] [--sign-card [--jwks FILE]]
 *
 * Prints the agent's URL on stdout, one short line per turn on stderr, and runs until Ctrl+C
 * (SIGINT) or SIGTERM, then closes cleanly and exits 0.
 */
import { isIP } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_MEMORY_FILE, startDemoAgent } from './agent.js';
import type { DemoAgent, DemoAgentOptions } from './agent.js';

/** The port used when `--port` is not given. */
export const DEFAULT_PORT = 41241;

const USAGE = `Usage: serve [--port N] [--host ADDRESS] [--v03] [--grpc] [--memory FILE] [--sign-card [--jwks FILE]]

Runs the a4h demo agent: a real A2A agent that streams its answers word by word and
remembers each conversation (by contextId) in a file. Say "slow …" for a slow answer
you can cancel, "attach …" for an answer with a small PNG file (raw bytes), "ask …" for a
question back (the next message answers it, in the same task), or "forget" to wipe the
conversation. Its card offers push notifications: a message carrying a push config has each
event of its task POSTed to that webhook.

  --port N        port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS  loopback address to listen on (default 127.0.0.1)
  --v03           speak A2A v0.3 (JSON-RPC) instead of v1.0
  --grpc          serve gRPC only, on a free port beside the HTTP one (which keeps
                  serving the card, naming only the gRPC interface)
  --memory FILE   where conversations are remembered
                  (default ${DEFAULT_MEMORY_FILE});
                  the tasks waiting on an answer are kept beside it
                  (memory.json → memory.tasks.json)
  --sign-card     sign the card (v1.0) with a key made at start; its public key goes
                  to a JWKS file, named on start, for clients to trust:
                  a4h card URL --trust-jwks FILE --require-signed-card
  --jwks FILE     where --sign-card writes the JWKS
                  (default jwks-<port>.json beside the default memory file)
  --help          show this help
`;

/** What the command line asked for: options for the agent, or the help text. */
export type ServeCommand = { help: true } | { help: false; options: ServeOptions };

/** Agent options with the address and protocol always decided. */
export type ServeOptions = DemoAgentOptions & Required<Pick<DemoAgentOptions, 'port' | 'host' | 'protocol'>>;

/** True for `localhost`, `::1` and 127.0.0.0/8. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** Parses the flags; throws an `Error` with a one-line message on bad input. */
export function parseServeArgs(argv: readonly string[]): ServeCommand {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      v03: { type: 'boolean' },
      grpc: { type: 'boolean' },
      memory: { type: 'string' },
      'sign-card': { type: 'boolean' },
      jwks: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return { help: true };
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || !Number.isInteger(port) || port > 65_535) {
    throw new Error(`--port must be a number from 0 to 65535, not "${values.port}"`);
  }
  const host = values.host ?? '127.0.0.1';
  if (!isLoopback(host)) {
    const why = 'the demo agent has no authentication';
    throw new Error(`--host must be a loopback address (127.0.0.1, ::1 or localhost), not "${host}": ${why}`);
  }
  const options: ServeOptions = { port, host, protocol: values.v03 ? '0.3' : '1.0' };
  if (values.grpc) options.grpc = true;
  if (values.memory !== undefined) options.memoryFile = values.memory;
  if (values.jwks !== undefined && !values['sign-card']) throw new Error('--jwks goes with --sign-card');
  if (values['sign-card']) {
    if (values.v03) throw new Error('--sign-card works with v1.0 only: the SDK signs v1.0 cards');
    options.signCard = true;
    if (values.jwks !== undefined) options.jwksFile = values.jwks;
  }
  return { help: false, options };
}

/** A one-line explanation of a start-up failure. */
function explain(error: unknown, options: ServeOptions): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${options.host} port ${options.port}`;
  if (code === 'EADDRINUSE') return `${where} is already in use (try --port 0 for a free one)`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${options.host}: no such address here`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs the command line; resolves with the exit code once the agent has stopped (or failed to start). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  let command: ServeCommand;
  try {
    command = parseServeArgs(argv);
  } catch (error) {
    process.stderr.write(`a4h demo agent: ${error instanceof Error ? error.message : String(error)} (see --help)\n`);
    return 1;
  }
  if (command.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { options } = command;
  let agent: DemoAgent;
  try {
    agent = await startDemoAgent({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    process.stderr.write(`a4h demo agent: ${explain(error, options)}\n`);
    return 1;
  }
  process.stdout.write(`a4h demo agent (A2A v${options.protocol}${options.grpc ? ', gRPC' : ''}) listening on ${agent.url}\n`);
  if (agent.signature) {
    const { kid, jwksFile } = agent.signature;
    process.stdout.write(`its card is signed by key ${kid}; the public key (JWKS) is in ${jwksFile}\n`);
    process.stdout.write(`check it: a4h card ${agent.url} --trust-jwks ${jwksFile} --require-signed-card\n`);
  }

  // After the first signal the handlers are gone, so a second Ctrl+C stops the process at once.
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(received);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stderr.write(`a4h demo agent: ${signal} received, closing\n`);
  await agent.close();
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
