/** What the page shows of a conversation: its exchanges, where its past and its agent stand, the A2UI catalog it draws. */
import type { OutgoingFile, TurnView } from 'a4h-a2a';

/** Where the page talks, from its backend (`/api/config` and `/api/context`). */
export interface ChatConfig {
  /** The agent's base URL. */
  agent: string;
  /** This conversation's key (the page keeps it in the URL or localStorage). */
  thread: string;
  /** The A2A contextId the backend derived for the thread (the secret stays on the server). */
  contextId: string;
  /** The exchanges of each page of the past: the newest at start, then each "Load earlier". Default 20. */
  historyLimit?: number;
}

/** The A2UI catalog the page draws: the basic catalog of A2UI v1.0 (the spec's v0_10 folder), as the demo agent uses it. */
export const A2UI_CATALOG = 'https://a2ui.org/specification/v0_10/catalogs/basic/catalog.json';

/** What every exchange has: the agent's turn. */
interface ExchangeBase {
  id: number;
  /** The turn so far, from `turnState()`. */
  view: TurnView;
  /** The turn's `surface-refused` events, each its sentence (the view keeps no refusal). */
  refused: readonly string[];
  /** The user pressed Cancel: the turn was unsubscribed, which cancelled the agent's task. */
  stopped: boolean;
}

/** One message the user sent from this page, and the agent's turn in answer. */
export interface SentExchange extends ExchangeBase {
  resumed: false;
  text: string;
  /** What the person did on a surface, when the message carries an action (`text` is then empty). */
  action?: string;
  /** The files the user sent with the text. */
  files: readonly OutgoingFile[];
}

/**
 * The agent's turn found running (or waiting on its question) when the page started: the message
 * it answers was sent before the page was reloaded (the view's `request`, when the agent kept it).
 */
export interface ResumedExchange extends ExchangeBase {
  resumed: true;
}

/** A message and the agent's turn in answer. */
export type Exchange = SentExchange | ResumedExchange;

/**
 * Where the thread's past stands: `loading` a page; `shown` (with `earlier` when the agent has
 * exchanges before the oldest shown); `unsupported` for an agent without `ListTasks` (v0.3: it shows
 * no history); `failed` when the agent could not be asked.
 */
export type HistoryState =
  { state: 'loading' } | { state: 'shown'; earlier: boolean } | { state: 'unsupported' } | { state: 'failed'; message: string };

/** Whether the agent answered: its card is read once at start; a completed turn proves it too. */
export type AgentReach = { state: 'checking' } | { state: 'reachable' } | { state: 'unreachable'; message: string };
