/**
 * `npm start`: the demo agent on loopback, and `a4h chat` with it.
 *
 * The agent remembers each conversation by contextId in a file under the OS temp directory; the
 * chat derives the contextId from the identity secret and the thread, storing nothing. So quit,
 * run `npm start` again, and the same thread continues. When `A4H_IDENTITY_SECRET` is unset, a
 * fixed, clearly named demo secret is used so that continuity shows on the first try.
 *
 *     npm start                      # chat on the default thread
 *     npm start -- --thread work     # another conversation
 *     npm start -- --help            # what it takes
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MEMORY_FILE, startDemoAgent, type DemoAgent } from './agent.js';
import { DEFAULT_PORT } from './serve.js';

/** The demo's identity secret: public on purpose, for the demo only. */
export const DEMO_SECRET = 'a4h-demo-secret-not-for-production';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** What `npm start -- --help` prints: what npm start takes, and where its agent listens. */
export const START_USAGE = `Usage: npm start [-- [--thread KEY] [--handle NAME] [other a4h chat options]]

Starts the demo agent on http://127.0.0.1:${DEFAULT_PORT}/ (a free port when ${DEFAULT_PORT} is taken, and
then says which) and a4h chat with it, on the thread "terminal" unless --thread names another.
Quit (/quit, Ctrl-C at the prompt) and start again: the conversation continues, and a question the
agent asked is asked again. The agent keeps its memory, and the tasks waiting on an answer, in
${DEFAULT_MEMORY_FILE} (and beside it).
Without A4H_IDENTITY_SECRET it uses a public demo secret, and says so.
Everything after -- goes to a4h chat: its options are in npx a4h chat --help (the agent's URL is
given for you). The agent alone, for other clients: npm run demo-agent -- --help.`;

async function start(): Promise<DemoAgent> {
  // A4H_DEMO_MEMORY moves the agent's memory file (the tests use a fresh one).
  const memoryFile = process.env['A4H_DEMO_MEMORY'] || undefined;
  try {
    return await startDemoAgent({ port: DEFAULT_PORT, ...(memoryFile ? { memoryFile } : {}) });
  } catch {
    // The usual port is taken (another demo agent?): any free one will do; the contextId does not depend on it.
    const agent = await startDemoAgent({ port: 0, ...(memoryFile ? { memoryFile } : {}) });
    process.stderr.write(`a4h: port ${DEFAULT_PORT} is taken; the demo agent listens on ${agent.url}\n`);
    return agent;
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${START_USAGE}\n`);
    return 0;
  }
  const env = { ...process.env };
  if (!env['A4H_IDENTITY_SECRET']) {
    env['A4H_IDENTITY_SECRET'] = DEMO_SECRET;
    process.stderr.write('a4h: using the public demo identity secret (set A4H_IDENTITY_SECRET to use your own)\n');
  }
  const agent = await start();
  // Ctrl-C reaches both processes: the chat decides what it means (cancel a turn, or leave).
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  const chat = spawn(process.execPath, [CLI, 'chat', agent.url, ...args], { env, stdio: 'inherit' });
  // SIGTERM or SIGHUP (`kill <pid of npm start>`, a closed terminal) stops the chat too, then the agent.
  const forward = (signal: NodeJS.Signals): void => void chat.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  const code = await new Promise<number>((resolve) =>
    chat.on('close', (status, signal) => resolve(status ?? 128 + (signal ? constants.signals[signal] : 0))),
  );
  process.off('SIGINT', ignore);
  process.off('SIGTERM', forward);
  process.off('SIGHUP', forward);
  await agent.close();
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`a4h: error: could not start the demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
