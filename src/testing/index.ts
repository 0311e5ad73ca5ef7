/**
 * `a4h-a2a/testing`: a scripted fake port and event builders, for tests of code built on the ladder.
 *
 * @packageDocumentation
 */
export { createFakePort, callByCall } from './fake-port.js';
export type { FakePort, FakePortCall, FakePortScript } from './fake-port.js';
export { agentMessage, ev, task, testCard } from './events.js';
