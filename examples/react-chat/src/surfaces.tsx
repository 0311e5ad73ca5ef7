/**
 * The agent's A2UI surfaces, drawn by `@copilotkit/a2ui-renderer`: one message processor for the
 * whole chat (its `A2UIProvider`), fed every `data-a2a-surface` part in the chat's order, so a later
 * reply that updates a surface updates it where it was drawn. A button's action comes back as the
 * `data-a2a-action` the chat sends as its next message. The surfaces reach the renderer only after
 * the library checked them; a refused message is shown as such.
 */
import {
  A2UIProvider,
  A2UIRenderer,
  createCatalog,
  useA2UIActions,
  useA2UIError,
  type A2UIClientEventMessage,
} from '@copilotkit/a2ui-renderer';
import { useEffect, useRef, type ReactNode } from 'react';
import type { A2AActionData, A2ASurfaceData, A2ASurfaceRefusedData, A2AUIMessage } from 'a4h-a2a/ai-sdk';

/** The catalog the page draws, as A2UI v1.0 names it: the client tells agents so (main.tsx). */
export const BASIC_CATALOG = 'https://a2ui.org/specification/v0_10/catalogs/basic/catalog.json';

/**
 * The renderer's basic components under that id (its own basic catalog is named by v0.9's id; the
 * processor finds a surface's catalog by the id its `createSurface` names).
 */
const catalog = createCatalog({}, {}, { catalogId: BASIC_CATALOG, includeBasicCatalog: true });

type Actions = ReturnType<typeof useA2UIActions>;

/** One A2UI message into the processor; a surface created again is first removed (the processor refuses a second creation). */
function feed(actions: Actions, { kind, surfaceId, message }: A2ASurfaceData['messages'][number]): void {
  if (kind === 'createSurface' && surfaceId !== undefined && actions.getSurface(surfaceId) !== undefined) {
    actions.processMessages([{ version: 'v0.9', deleteSurface: { surfaceId } }]);
  }
  // One at a time: a message the processor refuses (an unknown catalog, say) does not drop the ones after it.
  actions.processMessages([message]);
}

/** What was fed of one message's surface part: how many messages, and the first (a part that starts again differs there). */
type Fed = { count: number; first: string };

/**
 * Feeds the processor the chat's surface parts as they grow. A part that started again (a surface
 * drawn anew in the turn, a resumed reply replayed from its start) clears the processor and replays all.
 */
function Feeder({ messages, actionsRef }: { messages: readonly A2AUIMessage[]; actionsRef: { current: Actions | undefined } }) {
  const actions = useA2UIActions();
  actionsRef.current = actions;
  const fed = useRef(new Map<string, Fed>());
  useEffect(() => {
    const parts = messages.flatMap((message) =>
      message.parts.flatMap((part) =>
        part.type === 'data-a2a-surface' ? [{ key: `${message.id} ${part.data.surfaceId}`, list: part.data.messages }] : [],
      ),
    );
    const first = (list: A2ASurfaceData['messages']) => JSON.stringify(list[0] ?? null);
    const restarted = parts.some(({ key, list }) => {
      const was = fed.current.get(key);
      return was !== undefined && (was.count > list.length || was.first !== first(list));
    });
    if (restarted) {
      actions.clearSurfaces();
      fed.current.clear();
    }
    for (const { key, list } of parts) {
      for (const message of list.slice(fed.current.get(key)?.count ?? 0)) feed(actions, message);
      fed.current.set(key, { count: list.length, first: first(list) });
    }
  }, [messages, actions]);
  return null;
}

/** The renderer's last processing error (a surface it could not take), if any. */
function RendererError() {
  const error = useA2UIError();
  return error === null ? null : <p className="surface-error">The form could not be drawn: {error}</p>;
}

/**
 * The chat's surfaces: wrap the message list. `onAction` hears a button's action as the
 * `data-a2a-action` to send, with the surface's data model as the renderer holds it.
 */
export function SurfaceHost(props: { messages: readonly A2AUIMessage[]; onAction: (action: A2AActionData) => void; children: ReactNode }) {
  const actionsRef = useRef<Actions>(undefined);
  const onAction = ({ userAction }: A2UIClientEventMessage): void => {
    if (userAction?.sourceComponentId === undefined) return;
    const { name, surfaceId, sourceComponentId, context, timestamp } = userAction;
    const action: A2AActionData = { surfaceId, name, sourceComponentId, context: context ?? {} };
    if (timestamp !== undefined) action.timestamp = timestamp;
    const model: unknown = actionsRef.current?.getSurface(surfaceId)?.dataModel?.get('/');
    if (model !== undefined) action.dataModel = model;
    props.onAction(action);
  };
  return (
    <A2UIProvider catalog={catalog} onAction={onAction}>
      <Feeder messages={props.messages} actionsRef={actionsRef} />
      <RendererError />
      {props.children}
    </A2UIProvider>
  );
}

/**
 * A message's surface part: the surface drawn where its reply created it; a later reply's part (an
 * update of a surface above, a removal) says so in a line.
 */
export function SurfacePart({ data }: { data: A2ASurfaceData }) {
  if (data.messages.some((message) => message.kind === 'createSurface')) {
    return (
      <div className="surface" data-surface={data.surfaceId}>
        <A2UIRenderer surfaceId={data.surfaceId} fallback={<span className="note">Drawing…</span>} />
      </div>
    );
  }
  if (data.messages.some((message) => message.kind === 'beginRendering')) {
    return <span className="surface-note">A form in A2UI v0.8, which this page does not draw.</span>;
  }
  const removed = data.messages.at(-1)?.kind === 'deleteSurface';
  return (
    <span className="surface-note" data-surface={data.surfaceId}>
      {removed ? 'The agent removed a form.' : 'The agent updated the form above.'}
    </span>
  );
}

/** A refused A2UI message: never drawn; what was refused, in the library's sentence. */
export function SurfaceRefused({ data }: { data: A2ASurfaceRefusedData }) {
  return (
    <p className="surface-refused" role="alert" data-reason={data.reason}>
      A form from the agent was refused: {data.message}
    </p>
  );
}

/** The person's action, as their message shows it. */
export function ActionSent({ data }: { data: A2AActionData }) {
  return <span className="action-sent">Pressed “{data.name}”</span>;
}
