import { provideHttpClient, withFetch } from '@angular/common/http';
import { InjectionToken, provideBrowserGlobalErrorListeners, type ApplicationConfig } from '@angular/core';
import { provideA2A } from 'a4h-a2a/angular';

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

/**
 * Zoneless (Angular 21's default), HttpClient for the backend, and one a4h-a2a client. The client has
 * no identity secret: every turn carries the contextId the backend derived.
 */
export function appConfig(config: ExampleConfig): ApplicationConfig {
  return {
    providers: [
      provideBrowserGlobalErrorListeners(),
      provideHttpClient(withFetch()),
      provideA2A({ capabilities: { outputModes: ['text/plain', 'text/markdown'] } }),
      { provide: EXAMPLE_CONFIG, useValue: config },
    ],
  };
}
