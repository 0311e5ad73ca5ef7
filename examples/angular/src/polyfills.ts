/**
 * The official A2A SDK reads Node's global `Buffer` for byte parts; a browser has none. This runs
 * before the app (angular.json lists it under `polyfills`). The cast is the form strict TypeScript
 * without Node's types accepts (`globalThis.Buffer ??= Buffer` is TS7017 there).
 */
import { Buffer } from 'buffer';

(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;
