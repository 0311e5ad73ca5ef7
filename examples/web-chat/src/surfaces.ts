/**
 * The page's A2UI renderer: @a2ui/web_core's message processor (one for the page) and @a2ui/lit's
 * `<a2ui-surface>` element. Each exchange's surfaces (its view's `surfaces`, or a past exchange's from
 * `history`, as they stand: each surface's messages, already checked by the library) are fed to the
 * processor, each message once; a surface is drawn in
 * the bubble of the turn that created it, and a later turn's messages about it (the answer to an
 * action) update it there, in place. A later turn that sees the creation again (a turn on the task
 * that drew it reads that task's earlier parts) does not draw it twice. A button's action goes to `onAction` with the surface as its
 * turn left it and the data model the renderer holds: the page sends it with `surfaceAction`. An
 * exchange whose row left the page is forgotten (`forget`): the exchange that shows its task now draws its surfaces anew.
 */
import { A2uiSurface, basicCatalog } from '@a2ui/lit/v0_9';
import type { LitComponentApi } from '@a2ui/lit/v0_9';
import { Catalog, MessageProcessor } from '@a2ui/web_core/v0_9';
import type { A2uiMessage } from '@a2ui/web_core/v0_9';
import { injectBasicCatalogStyles } from '@a2ui/web_core/v0_9/basic_catalog';
import type { A2UIMessage, SurfaceView } from 'a4h-a2a';
import { A2UI_CATALOG } from './exchange.js';

/** A person's action on a surface, as `surfaceAction` takes it. */
export interface PageAction {
  surface: SurfaceView;
  name: string;
  sourceComponentId: string;
  context: Record<string, unknown>;
  /** The surface's whole data model, as the renderer holds it (sent only when the agent asked for it). */
  dataModel: unknown;
}

/**
 * The catalogs the processor draws: the basic catalog's components and functions as @a2ui/lit 0.11
 * ships them (under A2UI v0.9's id), and the same under v1.0's id ({@link A2UI_CATALOG}), the one the
 * page asks agents for: v1.0's basic catalog has the components the demo's form uses, unchanged.
 */
const CATALOGS = [new Catalog(A2UI_CATALOG, [...basicCatalog.components.values()], [...basicCatalog.functions.values()]), basicCatalog];

/** The kinds of A2UI v0.8, which this processor (v0.9 and later) does not draw. */
const V08: ReadonlySet<string> = new Set(['beginRendering', 'surfaceUpdate', 'dataModelUpdate']);

/** What one exchange fed the processor: each surface's messages, in order. */
type Fed = Map<string, readonly A2UIMessage[]>;

export class SurfaceBoard {
  readonly #processor: MessageProcessor<LitComponentApi>;
  /** Per exchange (its row's key), what it fed. */
  readonly #fed = new Map<string, Fed>();
  /** Per exchange, what could not be drawn, in sentences. */
  readonly #problems = new Map<string, string[]>();
  /** Each drawn surface as the turn that created it left it (the action names its creation). */
  readonly #created = new Map<string, SurfaceView>();
  readonly #elements = new Map<string, HTMLElement>();
  /** Each drawn surface's messages since its creation, as JSON, and the exchange that created it. */
  readonly #drawn = new Map<string, { by: string; messages: string[] }>();

  constructor(onAction: (action: PageAction) => void) {
    this.#processor = new MessageProcessor(CATALOGS, (action) => {
      const surface = this.#created.get(action.surfaceId);
      if (surface === undefined) return;
      const dataModel: unknown = this.#processor.model.getSurface(action.surfaceId)?.dataModel.get('/');
      const { name, sourceComponentId, context } = action;
      onAction({ surface, name, sourceComponentId, context, dataModel });
    });
    this.#processor.onSurfaceDeleted((surfaceId) => {
      this.#elements.get(surfaceId)?.remove();
      this.#elements.delete(surfaceId);
      this.#drawn.delete(surfaceId);
    });
  }

  /**
   * Feeds exchange `key`'s surfaces (its latest view's, or a past exchange's from `history`) to the
   * processor: the messages not fed yet; a surface created again, or gone from the view (deleted),
   * dropped first. Surfaces it creates are drawn in `container`. With `past`, the exchange is of the
   * thread's past: a surface it only updates waits, unfed, until an earlier exchange's creation is drawn
   * (call again then). Returns what could not be drawn, in sentences.
   */
  show(
    key: string,
    surfaces: Readonly<Record<string, SurfaceView>> | undefined,
    container: HTMLElement,
    { past = false }: { past?: boolean } = {},
  ): readonly string[] {
    const fed: Fed = this.#fed.get(key) ?? new Map();
    this.#fed.set(key, fed);
    for (const surfaceId of fed.keys()) {
      if (surfaces?.[surfaceId] !== undefined) continue;
      this.#processor.model.deleteSurface(surfaceId);
      fed.delete(surfaceId);
    }
    for (const view of Object.values(surfaces ?? {})) {
      const before = fed.get(view.surfaceId) ?? [];
      if (past && before.length === 0 && this.#waits(view)) continue;
      const goesOn = before.length > 0 && before.every((message, i) => view.messages[i] === message);
      const fresh = goesOn ? view.messages.slice(before.length) : view.messages.slice(this.#seen(key, view));
      if (view.messages[0]?.kind === 'createSurface') this.#created.set(view.surfaceId, view);
      for (const message of fresh) this.#feed(key, message, container);
      fed.set(view.surfaceId, view.messages);
    }
    return this.#problems.get(key) ?? [];
  }

  /**
   * Forgets exchange `key` (its row left the page: a task of the past that an exchange of this page
   * now shows): the surfaces it drew are deleted from the processor (their elements go with them), and
   * what it fed and could not draw is dropped, so the exchange that shows its task now draws them anew.
   * A surface it only updated stays, drawn where its creation is.
   */
  forget(key: string): void {
    for (const surfaceId of this.#fed.get(key)?.keys() ?? []) {
      if (this.#drawn.get(surfaceId)?.by !== key) continue;
      this.#processor.model.deleteSurface(surfaceId);
      this.#created.delete(surfaceId);
    }
    this.#fed.delete(key);
    this.#problems.delete(key);
  }

  /**
   * Whether a past exchange's surface waits for its creation: its messages update a surface that an
   * earlier exchange created, and that exchange is not shown yet (on a page of the past not loaded, or
   * loaded after this one). Fed once the creation is drawn (the next `show` of the exchange).
   */
  #waits(view: SurfaceView): boolean {
    const kind = view.messages[0]?.kind;
    if (kind === undefined || kind === 'createSurface' || V08.has(kind)) return false; // a v0.8 one is fed, to be noted
    return this.#processor.model.getSurface(view.surfaceId) === undefined;
  }

  /**
   * How many of `view`'s first messages the surface already got from another exchange: its creation
   * and what followed it, seen again (a turn on the task that drew it). Zero when the creation differs.
   */
  #seen(key: string, view: SurfaceView): number {
    const drawn = this.#drawn.get(view.surfaceId);
    if (drawn === undefined || drawn.by === key) return 0;
    let same = 0;
    while (
      same < view.messages.length &&
      same < drawn.messages.length &&
      JSON.stringify(view.messages[same]!.message) === drawn.messages[same]
    )
      same++;
    return same;
  }

  /** One message to the processor; a creation drawn in `container`; a failure noted for `key`. */
  #feed(key: string, message: A2UIMessage, container: HTMLElement): void {
    const { surfaceId, kind } = message;
    try {
      if (V08.has(kind)) throw new Error('it is A2UI v0.8, and this page draws v0.9 and later');
      // A surface created again starts over (its element goes with the old one).
      if (kind === 'createSurface' && surfaceId !== undefined) this.#processor.model.deleteSurface(surfaceId);
      this.#processor.processMessages([message.message as unknown as A2uiMessage]);
      if (surfaceId !== undefined && kind !== 'createSurface') this.#drawn.get(surfaceId)?.messages.push(JSON.stringify(message.message));
      const model = kind === 'createSurface' && surfaceId !== undefined ? this.#processor.model.getSurface(surfaceId) : undefined;
      if (model === undefined) return;
      this.#drawn.set(model.id, { by: key, messages: [JSON.stringify(message.message)] });
      const element = new A2uiSurface();
      element.surface = model;
      element.dataset['surfaceId'] = model.id;
      const waiting = Object.assign(document.createElement('span'), { slot: 'loading', className: 'surface-waiting' });
      waiting.textContent = 'Nothing drawn yet: the surface has no root component.';
      element.append(waiting);
      container.append(element);
      this.#elements.set(model.id, element);
      // The basic catalog's components render in the surface's shadow root: their stylesheet goes there too.
      if (element.shadowRoot !== null) injectBasicCatalogStyles(element.shadowRoot);
    } catch (error) {
      const problems = this.#problems.get(key) ?? [];
      const what = surfaceId === undefined ? 'A surface message' : `Surface "${surfaceId}"`;
      problems.push(`${what} (${kind}) was not drawn: ${error instanceof Error ? error.message : String(error)}`);
      this.#problems.set(key, problems);
    }
  }
}
