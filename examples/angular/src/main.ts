/**
 * Asks the backend where the agent is (GET /api/config), then starts the app. The thread's contextId
 * is asked for later, inside each turn (see chat.component.ts), so nothing else waits here.
 */
import { bootstrapApplication } from '@angular/platform-browser';
import { appConfig, loadExampleConfig } from './app/app.config';
import { ChatComponent } from './app/chat.component';

loadExampleConfig()
  .then((config) => bootstrapApplication(ChatComponent, appConfig(config)))
  .catch((error: unknown) => {
    document.body.textContent = `The chat could not start: ${error instanceof Error ? error.message : String(error)}`;
  });
