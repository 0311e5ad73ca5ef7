// Three turns in one thread: the agent sees one conversation (the demo agent counts the turns and
// quotes what was said before). Each message is sent after the previous reply ended.
//
//   node examples/node/thread.mjs [AGENT_URL]
//
// With the same A4H_IDENTITY_SECRET, a second run continues the same conversation (turn 4…).
import { lastValueFrom } from 'rxjs';
import { createA2A } from 'a4h-a2a/node';
import { exampleArgs, usageError } from '../args.mjs';

const [agent = 'http://127.0.0.1:41241/'] = args(1);
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

/** The command line: at most `most` positionals; --help prints the usage. */
function args(most) {
  const usage = `Usage: node examples/node/thread.mjs [AGENT_URL]
  three turns in one thread (AGENT_URL default http://127.0.0.1:41241/)`;
  const { positionals } = exampleArgs(usage, { allowPositionals: true, options: {} });
  if (positionals.length > most) usageError(usage, `at most ${most} arguments, not ${positionals.length}`);
  return positionals;
}
