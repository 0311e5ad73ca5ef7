// One turn with an A2A agent, its reply printed as it streams in.
//
//   npm run demo-agent                                 # an agent on http://127.0.0.1:41241/
//   node examples/node/turn.mjs [AGENT_URL] [MESSAGE]
//
// The thread's contextId is derived from A4H_IDENTITY_SECRET (keep it: the conversation continues).
import { createA2A } from 'a4h-a2a/node';
import { exampleArgs, usageError } from '../args.mjs';

const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = args(2);
const a2a = createA2A({ logger: console }); // the secret: A4H_IDENTITY_SECRET

a2a.turn({ agent, handle: 'demo', thread: 'node-example', text }).subscribe({
  next(event) {
    if (event.type === 'text') process.stdout.write(event.replace ? `\n${event.text}` : event.text);
    if (event.type === 'end') console.log(`\n[${event.outcome}]`);
  },
  error(error) {
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
    void a2a.close();
  },
  complete: () => void a2a.close(),
});

/** The command line: at most `most` positionals; --help prints the usage. */
function args(most) {
  const usage = `Usage: node examples/node/turn.mjs [AGENT_URL] [MESSAGE]
  one turn, its reply printed as it streams in (AGENT_URL default http://127.0.0.1:41241/)`;
  const { positionals } = exampleArgs(usage, { allowPositionals: true, options: {} });
  if (positionals.length > most) usageError(usage, `at most ${most} arguments, not ${positionals.length}`);
  return positionals;
}
