// One turn with an A2A agent, its reply printed as it streams in.
//
//   npm run demo-agent                                 # an agent on http://127.0.0.1:41241/
//   node examples/node/turn.mjs [AGENT_URL] [MESSAGE]
//
// The thread's contextId is derived from A4H_IDENTITY_SECRET (keep it: the conversation continues).
import { createA2A } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(`${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/turn.mjs [AGENT_URL] [MESSAGE]\n`);
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/', text = 'Hello!'] = args;
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
