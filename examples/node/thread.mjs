// Three turns in one thread: the agent sees one conversation (the demo agent counts the turns and
// quotes what was said before). Each message is sent after the previous reply ended.
//
//   node examples/node/thread.mjs [AGENT_URL]
//
// With the same A4H_IDENTITY_SECRET, a second run continues the same conversation (turn 4…).
import { lastValueFrom } from 'rxjs';
import { createA2A } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(`${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/thread.mjs [AGENT_URL]\n`);
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/'] = args;
const a2a = createA2A({ logger: console });
const thread = 'node-example-thread'; // a gateway's conversation key, e.g. a chat channel and thread

try {
  for (const text of ['My name is Ada.', 'I like tea.', 'What did I tell you?']) {
    console.log(`you › ${text}`);
    const end = await lastValueFrom(a2a.turn({ agent, handle: 'demo', thread, text })); // the last event: `end`
    console.log(`agent › ${end.text}`);
  }
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await a2a.close();
}
