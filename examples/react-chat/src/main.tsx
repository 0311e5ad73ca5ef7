/**
 * The React chat page: asks its backend where the agent is and which contextId this conversation has,
 * reads the thread's past from the agent, then renders the chat. A reload keeps the thread.
 */
// First, before the library: the SDK needs a global `Buffer` for raw-bytes file parts (see the file).
import './buffer-polyfill.js';
import { createA2A } from 'a4h-a2a';
import { a2aChatTransport, type A2AUIMessage } from 'a4h-a2a/ai-sdk';
import { createRoot } from 'react-dom/client';
import { Chat } from './chat.js';
import { BASIC_CATALOG } from './surfaces.js';

/** The conversation key: `?thread=…` if given, else one kept in localStorage (so a reload continues). */
function threadKey(): string {
  const fromUrl = new URL(location.href).searchParams.get('thread');
  if (fromUrl) return fromUrl;
  const stored = localStorage.getItem('a4h-react-chat-thread');
  if (stored) return stored;
  const fresh = `react-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
  localStorage.setItem('a4h-react-chat-thread', fresh);
  return fresh;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function main(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  try {
    const thread = threadKey();
    const { agent, handle } = await getJson<{ agent: string; handle: string }>('/api/config');
    // The backend derives the thread's contextId (the identity secret stays there); asked once, used by every turn.
    const contextId = getJson<{ contextId: string }>(`/api/context?thread=${encodeURIComponent(thread)}`).then((body) => body.contextId);
    // The catalog the page draws A2UI with: an agent whose card offers A2UI is told so on each message.
    const client = createA2A({ a2ui: { catalogs: [BASIC_CATALOG] } });
    const transport = a2aChatTransport({ client, agent, handle, contextId: () => contextId });
    // The thread's past, read from the agent; one that lists no tasks (a v0.3 agent) shows none.
    const history = await transport.history({ chatId: thread }).then(
      (page) => page.messages,
      (): A2AUIMessage[] => [],
    );
    root.render(
      <>
        <header className="top" id="meta">
          {new URL(agent).host} · thread {thread}
        </header>
        <Chat thread={thread} transport={transport} history={history} />
      </>,
    );
  } catch (error) {
    root.render(<p className="error">Could not start: {error instanceof Error ? error.message : String(error)}</p>);
  }
}

void main();
