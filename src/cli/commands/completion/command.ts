import { completionScript, flagsOf, SHELLS, type CompletionTable, type Shell } from './scripts.js';
import { defineCommand } from '../../core/command.js';
import { UsageError } from '../../core/io.js';
import { AUTH_OPTIONS } from '../auth/command.js';
import { CARD_OPTIONS } from '../card/command.js';
import { CHAT_OPTIONS } from '../chat/command.js';
import { CONFIG_OPTIONS } from '../config/command.js';
import { CONFORMANCE_OPTIONS } from '../conformance/command.js';
import { CONTEXT_OPTIONS } from '../context/command.js';
import { HISTORY_OPTIONS } from '../history/command.js';
import { RESUME_OPTIONS } from '../resume/command.js';
import { SEND_OPTIONS } from '../send/command.js';
import { ONE_TASK_OPTIONS } from '../task/common.js';

/** The flags `a4h completion` takes. */
export const COMPLETION_OPTIONS = { help: { type: 'boolean', short: 'h' } } as const;

/** The demo agent's flags (its parser is the demo's own). */
const DEMO_SERVER_FLAGS = ['--port', '--host', '--v03', '--grpc', '--memory', '--sign-card', '--jwks', '--help', '-h'];

/** What completes after each command: the parsers' own flags, so the scripts follow them. */
export const COMPLETIONS: CompletionTable = {
  chat: { words: [], flags: flagsOf(CHAT_OPTIONS) },
  send: { words: [], flags: flagsOf(SEND_OPTIONS) },
  resume: { words: [], flags: flagsOf(RESUME_OPTIONS) },
  history: { words: [], flags: flagsOf(HISTORY_OPTIONS) },
  card: { words: ['get'], flags: flagsOf(CARD_OPTIONS) },
  context: { words: [], flags: flagsOf(CONTEXT_OPTIONS) },
  config: { words: ['show'], flags: flagsOf(CONFIG_OPTIONS) },
  'demo-server': { words: [], flags: DEMO_SERVER_FLAGS },
  completion: { words: [...SHELLS], flags: flagsOf(COMPLETION_OPTIONS) },
  conformance: { words: [], flags: flagsOf(CONFORMANCE_OPTIONS) },
  auth: { words: ['login', 'logout'], flags: flagsOf(AUTH_OPTIONS) },
  task: { words: ['get', 'cancel', 'list', 'subscribe', 'download', 'push-config'], flags: flagsOf(ONE_TASK_OPTIONS) },
};

/** `a4h completion <shell>`: the script on stdout. */
export const completion = defineCommand({
  name: 'completion',
  usage: `Usage: a4h completion bash|zsh|fish

Prints a completion script for the shell: the commands, their verbs and their flags.
  bash: source <(a4h completion bash)   (or save it in ~/.local/share/bash-completion/completions/a4h)
  zsh:  source <(a4h completion zsh)    (or save it as _a4h in a directory of $fpath)
  fish: a4h completion fish > ~/.config/fish/completions/a4h.fish`,
  options: COMPLETION_OPTIONS,
  async run({ positionals, io }) {
    const [shell, ...rest] = positionals;
    if (shell === undefined || rest.length > 0 || !(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`completion takes one shell: ${SHELLS.join(', ')}`);
    }
    io.out.write(completionScript(shell as Shell, COMPLETIONS));
    return 0;
  },
});
