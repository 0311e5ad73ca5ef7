// A thread's past exchanges, read from the agent with nothing stored: what a chat shows when it
// opens (after a restart, a page reload, on another replica), then "load earlier" page by page.
//
//   node examples/node/history.mjs [AGENT_URL] [THREAD]
//
// The thread's contextId is derived from A4H_IDENTITY_SECRET: the same secret finds the same past.
import { lastValueFrom } from 'rxjs';
import { createA2A } from 'a4h-a2a/node';

const args = process.argv.slice(2);
const flag = args.find((arg) => arg.startsWith('-'));
if (flag !== undefined) {
  // --help prints the usage; a flag it does not take prints it on stderr (exit 2).
  const out = flag === '--help' || flag === '-h' ? process.stdout : process.stderr;
  out.write(`${out === process.stderr ? `unknown flag ${flag}\n` : ''}Usage: node examples/node/history.mjs [AGENT_URL] [THREAD]\n`);
  process.exit(out === process.stdout ? 0 : 2);
}
const [agent = 'http://127.0.0.1:41241/', thread = 'node-example-thread'] = args;
const a2a = createA2A({ logger: console });

try {
  // The newest two exchanges, oldest first: a chat's opening screen.
  let page = await lastValueFrom(a2a.history({ agent, handle: 'demo', thread, limit: 2 }));
  const shown = [...page.exchanges];
  // "Load earlier": each page hands back the cursor of the exchanges before it, until there are none.
  while (page.before !== undefined) {
    page = await lastValueFrom(a2a.history({ agent, handle: 'demo', thread, limit: 2, before: page.before }));
    shown.unshift(...page.exchanges);
  }
  for (const { user, reply, outcome, state } of shown) {
    console.log(`you › ${user.map((message) => message.text).join(' / ') || '(the agent kept no message)'}`);
    console.log(`agent › ${reply} [${outcome ?? state}]`);
  }
} catch (error) {
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
} finally {
  await a2a.close();
}
