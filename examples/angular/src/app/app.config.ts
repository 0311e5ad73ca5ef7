import { provideHttpClient, withFetch } from '@angular/common/http';
import { InjectionToken, provideBrowserGlobalErrorListeners, type ApplicationConfig } from '@angular/core';
import { DEFAULT_CATALOG, provideA2UI, type Catalog } from '@a2ui/angular';
import { provideA2A } from 'a4h-a2a/angular';
import { A2UI_THEME } from './a2ui-theme';
import { SurfaceChoice } from './choice.component';

/** The catalog @a2ui/angular 0.8.3 draws: A2UI v0.8's standard catalog, told to an agent whose card offers A2UI. */
export const A2UI_V08_CATALOG = 'https://a2ui.org/specification/v0_8/standard_catalog_definition.json';

/** What the backend tells the page (GET /api/config): where the agent is, and the handle its contextIds are derived with. */
export interface ExampleConfig {
  agent: string;
  handle: string;
}

export const EXAMPLE_CONFIG = new InjectionToken<ExampleConfig>('the backend config');

/** Reads GET /api/config; rejects with the path and the status when the backend says no. */
export async function loadExampleConfig(): Promise<ExampleConfig> {
  const response = await fetch('/api/config');
  if (!response.ok) throw new Error(`/api/config: HTTP ${response.status}`);
  return (await response.json()) as ExampleConfig;
}

/** @a2ui/angular's v0.8 catalog, its MultipleChoice replaced by one that writes the choice to its own surface (choice.component.ts). */
const choice = DEFAULT_CATALOG['MultipleChoice'];
const A2UI_CATALOG: Catalog = {
  ...DEFAULT_CATALOG,
  MultipleChoice: typeof choice === 'object' ? { ...choice, type: () => SurfaceChoice } : () => SurfaceChoice,
};

/**
 * Zoneless (Angular 21's default), HttpClient for the backend, one a4h-a2a client, and @a2ui/angular's
 * catalog and theme for the agent's surfaces. The client has no identity secret: every turn carries
 * the contextId the backend derived. With `a2ui`, an agent whose card offers A2UI is told the catalog.
 */
export function appConfig(config: ExampleConfig): ApplicationConfig {
  return {
    providers: [
      provideBrowserGlobalErrorListeners(),
      provideHttpClient(withFetch()),
      provideA2A({ capabilities: { outputModes: ['text/plain', 'text/markdown'] }, a2ui: { catalogs: [A2UI_V08_CATALOG] } }),
      provideA2UI({ catalog: A2UI_CATALOG, theme: A2UI_THEME }),
      { provide: EXAMPLE_CONFIG, useValue: config },
    ],
  };
}
