// The chat: `useChat` from `@ai-sdk/react` with the A2A transport of `a4h-a2a/ai-sdk`. It opens with
// the thread's past (`history`, read from the agent), picks up a reply still in flight (`resume: true`:
// after a reload it goes on under the conversation so far), and Stop cancels the agent's task. The
// agent's A2UI forms are drawn in its replies (surfaces.tsx); a form's button sends its action.
import { useChat } from '@ai-sdk/react';
import { useState } from 'react';
import type { A2AChatTransport, A2AUIMessage } from 'a4h-a2a/ai-sdk';
import { Message } from './message.js';
import { SurfaceHost } from './surfaces.js';

export interface ChatProps {
  /** The conversation key: `useChat`'s id, which the transport takes as the thread. */
  thread: string;
  /** `a2aChatTransport({ client, agent, handle, contextId })`, see main.tsx. */
  transport: A2AChatTransport;
  /** The thread's past: `(await transport.history({ chatId: thread })).messages`. */
  history: A2AUIMessage[];
}

export function Chat({ thread, transport, history }: ChatProps) {
  const { messages, sendMessage, stop, status, error } = useChat<A2AUIMessage>({
    id: thread,
    transport,
    messages: history,
    resume: true,
    experimental_throttle: 50,
  });
  const [input, setInput] = useState('');
  const [stopped, setStopped] = useState<string>();
  const busy = status === 'submitted' || status === 'streaming';

  return (
    <>
      {/* A form's button sends its action as the chat's next message (a data-a2a-action part); the answer updates the form. */}
      <SurfaceHost
        messages={messages}
        onAction={(action) => void (busy || sendMessage({ parts: [{ type: 'data-a2a-action', data: action }] }))}
      >
        <ol id="messages" className="messages">
          {messages.map((message, i) => (
            <Message key={message.id} message={message} streaming={busy && i === messages.length - 1} stopped={message.id === stopped} />
          ))}
        </ol>
      </SurfaceHost>
      {error && <p className="error">{error.message}</p>}
      <form
        id="composer"
        className="composer"
        onSubmit={(event) => {
          event.preventDefault();
          if (busy || input.trim() === '') return;
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input id="input" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Message the agent…" />
        <button id="send" type="submit" disabled={busy}>
          Send
        </button>
        {/* Stop leaves the turn: the transport's turn is unsubscribed, and the agent gets CancelTask. */}
        <button id="cancel" type="button" disabled={!busy} onClick={() => (setStopped(messages.at(-1)?.id), void stop())}>
          Stop
        </button>
      </form>
    </>
  );
}
