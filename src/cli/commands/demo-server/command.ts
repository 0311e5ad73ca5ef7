import type { Runnable } from '../../core/command.js';

export const DEMO_SERVER_USAGE = `Usage: a4h demo-server [--port N] [--host ADDRESS] [--v03] [--grpc] [--memory FILE] [--sign-card [--jwks FILE]]

Runs the bundled demo agent (what npm run demo-agent starts): a real A2A agent on loopback, to try
the commands on. It prints its URL on stdout, one line per turn on stderr, and runs until Ctrl+C.
Its own help, with every flag: a4h demo-server --help. It ships with the source, not the npm package
(its server dependencies are development ones): run it from a clone after npm install.`;

/** The demo agent's command line, as the demo's serve module exports it. */
interface ServeModule {
  main(argv: readonly string[]): Promise<number>;
}

/** Where the built demo agent is, beside the built command (dist/demo/serve.js). */
const SERVE = new URL('../../../demo/serve.js', import.meta.url);

/**
 * `a4h demo-server`: the demo agent's own command line, run in this process (its flags, its help, its
 * exit status: its parser is the demo's). Without the demo in this installation (the published package
 * leaves it out), says so: 1.
 */
export const demoServer: Runnable = { name: 'demo-server', usage: DEMO_SERVER_USAGE, invoke: runDemo };

async function runDemo(args: string[], io: Parameters<Runnable['invoke']>[1]): Promise<number> {
  const help = args.includes('--help') || args.includes('-h');
  let serve: ServeModule | undefined;
  try {
    serve = (await import(SERVE.href)) as ServeModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
  if (help) io.out.write(`${DEMO_SERVER_USAGE}\n\n`);
  if (serve === undefined) {
    if (help) return 0;
    io.err.write('a4h: error: the demo agent is not in this installation: it ships with the source (a clone, then npm install)\n');
    return 1;
  }
  return serve.main(help ? ['--help'] : args);
}
