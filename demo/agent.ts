/**
 * The a4h demo agent: a real A2A server, built with the official SDK, that streams every answer word
 * by word and remembers each conversation in a JSON file.
 *
 * ```ts
 * const agent = await startDemoAgent({ port: 41241 });
 * console.log(agent.url); // http://127.0.0.1:41241/ — the card is at .well-known/agent-card.json
 * await agent.close();
 * ```
 *
 * v1.0 (the default) runs on @a2a-js/sdk 1.3 with JSON-RPC and HTTP+JSON endpoints; `protocol: '0.3'`
 * runs a genuine v0.3 agent on @a2a-js/sdk 0.3.14 (`sdk03`) with JSON-RPC.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import * as v03 from 'sdk03/server';
import * as v03Express from 'sdk03/server/express';
import type { Express } from 'express';
import { PATHS, cardV03, cardV1 } from './card.js';
import { DemoExecutorV03 } from './executor-v03.js';
import { DemoExecutorV1 } from './executor-v1.js';
import { listen } from './http.js';
import { Memory } from './memory.js';
import type { RunningTurns, TurnSettings } from './turn.js';

/** Options for {@link startDemoAgent}. */
export interface DemoAgentOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on; default `127.0.0.1`. */
  host?: string;
  /** Where conversations are remembered; default `<tmpdir>/a4h-demo-agent/memory.json`. */
  memoryFile?: string;
  /** A2A protocol version to speak; default `'1.0'`. */
  protocol?: '1.0' | '0.3';
  /** Pause before each streamed word, in ms; default 40 (`slow` answers use 300). */
  chunkDelayMs?: number;
  /** Gets one short line per turn (contextId prefix and turn number); the agent logs nothing otherwise. */
  log?: (line: string) => void;
}

/** A running demo agent. */
export interface DemoAgent {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41241/`. */
  url: string;
  /** Stops running turns, closes the server and every connection, and writes memory to disk. */
  close(): Promise<void>;
}

/** The default memory file. */
export const DEFAULT_MEMORY_FILE = join(tmpdir(), 'a4h-demo-agent', 'memory.json');

/** Pause before each word of a `slow` answer. */
const SLOW_CHUNK_DELAY_MS = 300;

/** Mounts the v1.0 agent (card, JSON-RPC, HTTP+JSON) on `app`; returns its running turns. */
function mountV1(app: Express, url: string, settings: TurnSettings): RunningTurns {
  const executor = new DemoExecutorV1(settings);
  const requestHandler = new DefaultRequestHandler(cardV1(url), new InMemoryTaskStore(), executor);
  const userBuilder = UserBuilder.noAuthentication;
  app.use(PATHS.card, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(PATHS.jsonRpc, jsonRpcHandler({ requestHandler, userBuilder }));
  app.use(PATHS.rest, restHandler({ requestHandler, userBuilder }));
  return executor.turns;
}

/** Mounts the v0.3 agent (card, JSON-RPC) on `app`; returns its running turns. */
function mountV03(app: Express, url: string, settings: TurnSettings): RunningTurns {
  const executor = new DemoExecutorV03(settings);
  const requestHandler = new v03.DefaultRequestHandler(cardV03(url), new v03.InMemoryTaskStore(), executor);
  const userBuilder = v03Express.UserBuilder.noAuthentication;
  app.use(PATHS.card, v03Express.agentCardHandler({ agentCardProvider: requestHandler }));
  app.use(PATHS.jsonRpc, v03Express.jsonRpcHandler({ requestHandler, userBuilder }));
  return executor.turns;
}

/** Starts the demo agent; resolves once it listens (rejects if the port is taken). */
export async function startDemoAgent(options: DemoAgentOptions = {}): Promise<DemoAgent> {
  const protocol = options.protocol ?? '1.0';
  const memory = await Memory.open(options.memoryFile ?? DEFAULT_MEMORY_FILE);
  const server = await listen(options.host ?? '127.0.0.1', options.port ?? 0);
  const settings: TurnSettings = {
    memory,
    chunkDelayMs: options.chunkDelayMs ?? 40,
    slowChunkDelayMs: SLOW_CHUNK_DELAY_MS,
    ...(options.log ? { log: options.log } : {}),
  };
  const turns = protocol === '0.3' ? mountV03(server.app, server.url, settings) : mountV1(server.app, server.url, settings);
  server.app.get('/', (_req, res) => {
    res.type('text/plain').send(`a4h demo agent (A2A v${protocol}). Agent card: ${server.url}${PATHS.card.slice(1)}\n`);
  });

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    close() {
      closing ??= (async () => {
        turns.stopAll();
        await server.close();
        await memory.flush();
      })();
      return closing;
    },
  };
}
