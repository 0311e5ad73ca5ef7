/**
 * The v0.8 MultipleChoice of @a2ui/angular 0.8.3, with the person's choice written to its own surface:
 * that version's component calls `setData` without the surface's id, so the choice lands on the
 * processor's `@default` surface and the action sends the agent's first value instead. The same select,
 * the same bindings (`DEFAULT_CATALOG.MultipleChoice`'s), put in the catalog in its place (app.config.ts).
 * Each option says whether it is the one chosen (that version sets the select's value before its options
 * exist, so a surface drawn again shows the first option whatever the data model holds).
 */
import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import { DynamicComponent } from '@a2ui/angular';

/** A v0.8 string value (`@a2ui/web_core`'s `StringValue`): a literal or a path into the data model. */
interface StringValue {
  path?: string;
  literalString?: string;
  literal?: string;
}

@Component({
  selector: 'a4h-a2ui-choice',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <section [class]="theme.components.MultipleChoice.container">
      <label [class]="theme.components.MultipleChoice.label" [for]="selectId">{{ description() }}</label>
      <select
        (change)="choose($event)"
        [id]="selectId"
        [class]="theme.components.MultipleChoice.element"
        [style]="theme.additionalStyles?.MultipleChoice"
      >
        @for (option of options(); track option.value) {
          <option [value]="option.value" [selected]="option.value === selected()">{{ resolvePrimitive(option.label) }}</option>
        }
      </select>
    </section>
  `,
  styles: [':host { display: block; flex: var(--weight); min-height: 0; overflow: auto } select { width: 100%; box-sizing: border-box }'],
})
export class SurfaceChoice extends DynamicComponent {
  readonly options = input.required<readonly { label: StringValue; value: string }[]>();
  readonly value = input.required<StringValue | null>();
  readonly description = input.required<string>();
  protected readonly selectId = this.getUniqueId('a4h-a2ui-choice');
  protected readonly selected = computed(() => this.resolvePrimitive(this.value()));

  protected choose(event: Event): void {
    const path = this.value()?.path;
    if (!(event.target instanceof HTMLSelectElement) || !event.target.value || !path) return;
    const component = this.component();
    this.processor.setData(component, this.processor.resolvePath(path, component.dataContextPath), event.target.value, this.surfaceId());
  }
}
