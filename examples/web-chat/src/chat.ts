/**
 * The chat's state and actions, with no DOM: a list of exchanges (what the user said, and the
 * agent's turn folded into a `TurnView`), the one running turn, and a status line derived from it.
 */
import { catchTurnError, createA2A, initialTurnView, turnState } from 'a4h-a2a';
import type { A2AClient, OutgoingFile, TurnView } from 'a4h-a2a';
import type { Subscription } from 'rxjs';
import { computed, signal } from './signals.js';
import type { ReadonlySignal } from './signals.js';

/** Where the page talks, from its backend (`/api/config` and `/api/context`). */
export interface ChatConfig {
  /** The agent's base URL. */
  agent: string;
  /** This conversation's key (the page keeps it in the URL or localStorage). */
  thread: string;
  /** The A2A contextId the backend derived for the thread (the secret stays on the server). */
  contextId: string;
}

/** One message of the user and the agent's turn in answer. */
export interface Exchange {
  id: number;
  text: string;
  /** The files the user sent with the text. */
  files: readonly OutgoingFile[];
  /** The turn so far, from `turnState()`. */
  view: TurnView;
  /** The user pressed Cancel: the turn was unsubscribed, which cancelled the agent's task. */
  stopped: boolean;
}

/** The line under the messages: what the running turn is doing, or how the last one ended. */
export interface Status {
  tone: 'idle' | 'busy' | 'warn' | 'error';
  text: string;
  /** `reconnecting`, `polling`: the library's recovery, shown as badges. */
  flags: string[];
}

/** Whether the agent answered: its card is read once at start; a completed turn proves it too. */
export type AgentReach = { state: 'checking' } | { state: 'reachable' } | { state: 'unreachable'; message: string };

export interface Chat {
  /** Whether the agent can be reached (the status line says so instead of "Ready"). */
  readonly reach: ReadonlySignal<AgentReach>;
  readonly exchanges: ReadonlySignal<readonly Exchange[]>;
  /** True while a turn runs (Send is disabled, Cancel enabled). */
  readonly busy: ReadonlySignal<boolean>;
  readonly status: ReadonlySignal<Status>;
  /** Sends `text` (and `files`) as the next turn; ignored while a turn runs or when there is neither text nor a file. */
  send(text: string, files?: readonly OutgoingFile[]): void;
  /** Cancels the running turn: unsubscribing makes the library abort the stream and send CancelTask. */
  cancel(): void;
}

/** The agent's handle in contextId derivation; the backend uses the same. */
export const HANDLE = 'web';

export function createChat(config: ChatConfig, client: A2AClient = createA2A()): Chat {
  const exchanges = signal<readonly Exchange[]>([]);
  let running: { id: number; subscription: Subscription } | undefined;
  let nextId = 1;

  const patch = (id: number, change: Partial<Exchange>): void =>
    exchanges.update((list) => list.map((exchange) => (exchange.id === id ? { ...exchange, ...change } : exchange)));

  const last = computed(() => exchanges().at(-1));
  const busy = computed(() => {
    const exchange = last();
    return exchange !== undefined && exchange.view.phase === 'running' && !exchange.stopped;
  });
  const reach = signal<AgentReach>({ state: 'checking' });
  const status = computed((): Status => statusOf(last(), reach(), config.agent));
  // The card, once: an agent that is down shows at once, not after the first message.
  client.card(config.agent).subscribe({
    next: () => reach.set({ state: 'reachable' }),
    error: (error: unknown) => {
      if (reach.peek().state === 'checking') reach.set({ state: 'unreachable', message: errorMessage(error) });
    },
  });

  return {
    reach,
    exchanges,
    busy,
    status,
    send(text, files = []) {
      if (busy.peek() || (text.trim() === '' && files.length === 0)) return;
      const id = nextId++;
      exchanges.update((list) => [...list, { id, text, files, view: initialTurnView, stopped: false }]);
      const turn$ = client.turn({
        agent: config.agent,
        handle: HANDLE,
        thread: config.thread,
        text,
        contextId: config.contextId,
        ...(files.length > 0 ? { files } : {}),
      });
      const subscription = turn$.pipe(catchTurnError(), turnState()).subscribe({
        next: (view) => {
          if (view.outcome !== undefined) reach.set({ state: 'reachable' });
          patch(id, { view });
        },
        complete: () => {
          if (running?.id === id) running = undefined;
        },
      });
      if (!subscription.closed) running = { id, subscription };
    },
    cancel() {
      if (running === undefined) return;
      const { id, subscription } = running;
      running = undefined;
      subscription.unsubscribe();
      patch(id, { stopped: true });
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The idle line: "Ready" only once the agent answered. */
function idleStatus(reach: AgentReach, agent: string): Status {
  if (reach.state === 'checking') return { tone: 'busy', text: 'Connecting to the agent…', flags: [] };
  if (reach.state === 'unreachable') {
    const text = `The agent at ${new URL(agent).host} cannot be reached (${reach.message}). Is it running?`;
    return { tone: 'error', text, flags: [] };
  }
  return { tone: 'idle', text: 'Ready', flags: [] };
}

function statusOf(exchange: Exchange | undefined, reach: AgentReach, agent: string): Status {
  const idle = idleStatus(reach, agent);
  if (exchange === undefined) return idle;
  const { view } = exchange;
  if (exchange.stopped)
    return { tone: 'warn', text: 'Stopped: you cancelled the turn, and the agent was told to cancel its task.', flags: [] };
  if (view.phase === 'error') return { tone: 'error', text: `Error: ${view.error?.message ?? 'the turn failed'}`, flags: [] };
  if (view.phase === 'ended') {
    return view.outcome === 'completed' ? idle : { tone: 'warn', text: `The turn ended: ${outcomeText(view)}`, flags: [] };
  }
  const flags = [...(view.reconnecting ? ['reconnecting'] : []), ...(view.polling ? ['polling'] : [])];
  let text = 'Sending…';
  if (view.authRequired) text = `The agent asks you to sign in${view.authRequired.text ? `: ${view.authRequired.text}` : ''}`;
  else if (view.preview !== undefined) text = view.preview;
  else if (view.reply !== '') text = 'The agent is answering…';
  else if (view.state !== undefined) text = `The agent is ${view.state}…`;
  return { tone: 'busy', text, flags };
}

/** How a turn that did not complete ended, in words. */
export function outcomeText(view: TurnView): string {
  switch (view.outcome) {
    case 'input-required':
      return 'the agent needs more input';
    case 'auth-required':
      return 'the agent needs you to sign in';
    case 'failed':
      return 'the agent failed';
    case 'rejected':
      return 'the agent rejected the request';
    case 'canceled':
      return 'the task was cancelled';
    default:
      return view.outcome ?? 'unknown';
  }
}
