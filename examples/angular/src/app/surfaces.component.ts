/**
 * The agent's A2UI surfaces under the conversation, drawn by `@a2ui/angular` 0.8.3: its message
 * processor fed the conversation's surfaces (`chat.surfaces()`, checked by a4h-a2a first: the thread's
 * past's, as they stand after a reload, and this page's turns') as they change, one `<a2ui-surface>` per
 * surface it holds. A click on a surface's Button comes out of the
 * processor's `events` as a v0.8 `userAction`, and goes to the agent as `chat.act(surface, …)` (`acted`
 * says so first); the
 * agent's answer comes back through `chat.surfaces()` and updates the surface. That renderer knows A2UI
 * v0.8 only: a surface in another version (the demo agent's v1.0 form) gets a note, not a drawing.
 * The A2UI messages the turn refused are listed, each its reason and a sentence.
 */
import { ChangeDetectionStrategy, Component, effect, inject, input, output, signal, untracked } from '@angular/core';
import { takeUntilDestroyed } from '@angular/core/rxjs-interop';
import { MessageProcessor, Surface } from '@a2ui/angular';
import type { A2AConversation } from 'a4h-a2a/angular';
import { isV08, SurfaceFeed, versionOf, type SurfaceBatch } from './surface-feed';

/** What the processor's `processMessages` takes (the v0.8 server-to-client messages). */
type Processed = Parameters<MessageProcessor['processMessages']>[0];
/** A surface as the processor holds it, for `<a2ui-surface>`. */
type Held = ReturnType<MessageProcessor['getSurfaces']> extends ReadonlyMap<string, infer S> ? S : never;

@Component({
  selector: 'a4h-surfaces',
  imports: [Surface],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @for (refusal of chat().surfacesRefused(); track $index) {
      <p class="note refused" data-testid="surface-refused" [attr.data-reason]="refusal.reason">
        A surface was refused ({{ refusal.reason }}): {{ refusal.message }}
      </p>
    }
    @for (failure of failed(); track failure.id) {
      <p class="note refused" data-testid="surface-failed" [attr.data-surface-id]="failure.id">
        &#64;a2ui/angular could not draw the agent's surface: {{ failure.message }}
      </p>
    }
    @for (held of drawn(); track held.id) {
      <div class="surface" data-testid="surface" [attr.data-surface-id]="held.id">
        <a2ui-surface [surfaceId]="held.id" [surface]="held.surface" />
      </div>
    }
    @for (surface of chat().surfaces(); track surface.surfaceId) {
      @if (!isV08(surface)) {
        <p class="note undrawn" data-testid="surface-undrawn" [attr.data-surface-id]="surface.surfaceId">
          The agent drew a surface in A2UI {{ versionOf(surface) }}; &#64;a2ui/angular 0.8.3 draws A2UI v0.8 only, so it is not shown here.
        </p>
      }
    }
  `,
})
export class SurfacesComponent {
  readonly chat = input.required<A2AConversation>();
  /** An action sent (its name), before its turn runs: the page shows it as the person's message. */
  readonly acted = output<string>();

  private readonly processor = inject(MessageProcessor);
  private readonly feed = new SurfaceFeed();
  /** The surfaces the processor holds with a component tree to draw (a new object each time: the input changes). */
  protected readonly drawn = signal<readonly { id: string; surface: Held }[]>([]);
  /** The surfaces the processor threw on (dropped from it), each with what it said, until a change draws them. */
  protected readonly failed = signal<readonly { id: string; message: string }[]>([]);
  protected readonly isV08 = isV08;
  protected readonly versionOf = versionOf;

  /**
   * Each surface's messages into the processor, apart: one it throws on (v0.8's processor throws on a
   * component tree it cannot build) is dropped from it and said, and the page and the other surfaces go on.
   * `ids`: the conversation's surfaces now (a failure of one gone is forgotten).
   */
  private process(batches: readonly SurfaceBatch[], ids: ReadonlySet<string>): void {
    const failed = new Map(this.failed().flatMap((failure) => (ids.has(failure.id) ? [[failure.id, failure.message] as const] : [])));
    for (const { surfaceId, messages } of batches) {
      try {
        this.processor.processMessages(messages as Processed);
        failed.delete(surfaceId);
      } catch (error) {
        failed.set(surfaceId, error instanceof Error ? error.message : String(error));
        this.feed.forget(surfaceId);
      }
    }
    for (const id of failed.keys()) this.dropFromProcessor(id);
    this.failed.set([...failed].map(([id, message]) => ({ id, message: message.slice(0, 200) })));
    this.drawn.set(
      [...this.processor.getSurfaces()]
        .filter(([id, surface]) => surface.componentTree !== null && !failed.has(id))
        .map(([id, surface]) => ({ id, surface: { ...surface } })),
    );
  }

  /** Drops a surface from the processor (its deletion cannot throw). */
  private dropFromProcessor(surfaceId: string): void {
    this.processor.processMessages([{ deleteSurface: { surfaceId } }] as unknown as Processed);
  }

  constructor() {
    effect(() => {
      const batches = this.feed.next(this.chat().surfaces());
      const ids = new Set(
        this.chat()
          .surfaces()
          .map((surface) => surface.surfaceId),
      );
      untracked(() => this.process(batches, ids));
    });
    // A Button's action: the processor dispatches it (v0.8 `userAction`); it goes to the agent as a turn.
    this.processor.events.pipe(takeUntilDestroyed()).subscribe(({ message, completion }) => {
      const action = message.userAction;
      const surface = this.chat()
        .surfaces()
        .find((candidate) => candidate.surfaceId === action?.surfaceId);
      if (action !== undefined && surface !== undefined) {
        this.acted.emit(action.name);
        this.chat().act(surface, {
          name: action.name,
          sourceComponentId: action.sourceComponentId,
          context: action.context ?? {},
          timestamp: action.timestamp,
        });
      }
      // The agent's answer comes as the turn's surface events, not through the processor's promise. The
      // processor subscribes to `completion` after this runs (a completion now would reject its promise).
      queueMicrotask(() => {
        completion.next([]);
        completion.complete();
      });
    });
  }
}
