/**
 * The a4h demo agent: a real A2A server, built with the official SDK on the agent kit (fixtures/),
 * that streams every answer word by word and remembers each conversation in a JSON file.
 *
 * ```ts
 * const agent = await startDemoAgent({ port: 41241 });
 * console.log(agent.url); // http://127.0.0.1:41241/ — the card is at .well-known/agent-card.json
 * await agent.close();
 * ```
 *
 * v1.0 (the default) runs on @a2a-js/sdk 1.3 with JSON-RPC and HTTP+JSON endpoints, and keeps the tasks
 * that wait on the user in a file too (task-file.ts), so a question it asked survives a restart; `protocol: '0.3'`
 * runs a genuine v0.3 agent on @a2a-js/sdk 0.3.14 (`sdk03`) with JSON-RPC. `signCard` (v1.0 only) signs
 * its card with a key made at start, whose JWKS it writes to a file (see signed-card.ts).
 * With `grpc: true` either serves gRPC instead (the SDK's gRPC server on a free port beside the HTTP
 * one, which serves the card), and the card names only the gRPC interface.
 *
 * Every card offers push notifications (card.ts): a message that carries a push config (or a config
 * set on its task) has each event of its task POSTed to the client's webhook by the SDK's own sender,
 * its per-push line kept off the console (fixtures/push-quiet.ts).
 */
import { PATHS, startHost } from '../fixtures/http-host.js';
import { mountGrpcV03, mountGrpcV1 } from '../fixtures/mount-grpc.js';
import { mountPartsV03, mountPartsV1 } from '../fixtures/a2ui-mount.js';
import { quietPushSends } from '../fixtures/push-quiet.js';
import { demoScript } from './behaviour.js';
import { cardV03, cardV03Grpc, cardV1, cardV1Grpc } from './card.js';
import { cors } from './cors.js';
import { dirname } from 'node:path';
import { defaultMemoryFile } from './memory-file.js';
import { privateFolder } from './private-folder.js';
import { Memory } from './memory.js';
import { TaskFile, taskFileBeside } from './task-file.js';
import { defaultJwksFile, signCardWithNewKey } from './signed-card.js';

/** Options for {@link startDemoAgent}. */
export interface DemoAgentOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on; default `127.0.0.1`. */
  host?: string;
  /** Where conversations are remembered; default {@link DEFAULT_MEMORY_FILE} (per user and per checkout). */
  memoryFile?: string;
  /**
   * Where the tasks waiting on the user (a question the agent asked) are kept across restarts (v1.0);
   * default beside the memory file (`memory.json` → `memory.tasks.json`).
   */
  taskFile?: string;
  /** A2A protocol version to speak; default `'1.0'`. */
  protocol?: '1.0' | '0.3';
  /** Serve gRPC only (on a free port on the same address); the card, over HTTP, names only the gRPC interface. */
  grpc?: boolean;
  /** Pause before each streamed word, in ms; default 40 (`slow` answers use 300). */
  chunkDelayMs?: number;
  /** Gets one short line per turn (contextId prefix and turn number); the agent logs nothing otherwise. */
  log?: (line: string) => void;
  /** Sign the card (v1.0 only) with a key made at start; its JWKS goes to `jwksFile`. */
  signCard?: boolean;
  /** Where the JWKS of a signed card goes; default `<the memory file's folder>/jwks-<port>.json`. */
  jwksFile?: string;
}

/** A running demo agent. */
export interface DemoAgent {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41241/`. */
  url: string;
  /** With `signCard`: the key's id and the file holding its JWKS. */
  signature?: { kid: string; jwksFile: string };
  /** Stops running turns, closes the server and every connection, and writes memory to disk. */
  close(): Promise<void>;
}

/** The default memory file: `<tmpdir>/a4h-demo-agent-<user>/memory-<checkout hash>.json`. */
export const DEFAULT_MEMORY_FILE = defaultMemoryFile();

/** Pause before each word of a `slow` answer. */
const SLOW_CHUNK_DELAY_MS = 300;

/** Starts the demo agent; resolves once it listens (rejects if the port is taken). */
export async function startDemoAgent(options: DemoAgentOptions = {}): Promise<DemoAgent> {
  const protocol = options.protocol ?? '1.0';
  if (options.signCard && protocol !== '1.0') throw new Error('--sign-card works with v1.0 only: the SDK signs v1.0 cards');
  const memoryFile = options.memoryFile ?? DEFAULT_MEMORY_FILE;
  // The default folder (memory, tasks, the signing key's JWKS) is under the shared temp directory: the user's own, private.
  if (options.memoryFile === undefined || (options.signCard && options.jwksFile === undefined))
    await privateFolder(dirname(DEFAULT_MEMORY_FILE));
  quietPushSends(); // the SDK's sender prints a line per push; the agent logs one per turn
  const memory = await Memory.open(memoryFile);
  const tasks = await TaskFile.open(options.taskFile ?? taskFileBeside(memoryFile));
  // A long-running agent keeps no request log: `record: false`.
  const host = await startHost({ host: options.host ?? '127.0.0.1', port: options.port ?? 0, record: false, before: [cors] });
  const script = demoScript({
    memory,
    chunkDelayMs: options.chunkDelayMs ?? 40,
    slowChunkDelayMs: SLOW_CHUNK_DELAY_MS,
    ...(options.log ? { log: options.log } : {}),
  });
  const signing = options.signCard
    ? await signCardWithNewKey(options.jwksFile ?? defaultJwksFile(Number(new URL(host.baseUrl).port))).catch(async (error: unknown) => {
        await host.agent.close();
        throw error;
      })
    : undefined;
  const sign = signing ? { sign: signing.sign } : {};
  const grpc = { mount: '/', script, record: false, host: options.host ?? '127.0.0.1' };
  if (options.grpc && protocol === '0.3') await mountGrpcV03(host, { ...grpc, card: (target) => cardV03Grpc(host, target) });
  else if (options.grpc) await mountGrpcV1(host, { ...grpc, ...sign, card: cardV1Grpc, taskStore: tasks });
  // Over HTTP the turns can publish A2UI parts (a `form`); the kit's gRPC mounts cannot.
  else if (protocol === '0.3') mountPartsV03(host, { mount: '/', card: cardV03(host), script });
  else mountPartsV1(host, { mount: '/', card: cardV1(host), script, bindings: ['JSONRPC', 'HTTP+JSON'], taskStore: tasks, ...sign });
  const url = host.url('/');
  host.mount('/', (router) => {
    router.get('/', (_req, res) => {
      res
        .type('text/plain')
        .send(`a4h demo agent (A2A v${protocol}${options.grpc ? ', gRPC' : ''}). Agent card: ${url}${PATHS.card.slice(1)}\n`);
    });
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    ...(signing ? { signature: { kid: signing.kid, jwksFile: signing.jwksFile } } : {}),
    close() {
      closing ??= (async () => {
        await host.agent.close(); // stops running turns first
        await Promise.all([memory.flush(), tasks.flush()]);
      })();
      return closing;
    },
  };
}
