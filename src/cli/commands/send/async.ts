import { firstValueFrom } from 'rxjs';
import {
  type A2APort,
  checkInputModes,
  checkRequest,
  outgoingData,
  outgoingFiles,
  protocolSendResponse,
  type TurnRequest,
} from '../../../node/index.js';
import { notice, type Io } from '../../core/io.js';
import type { OutputMode } from '../../output/output.js';
import { printResult, warnOutcome } from '../../output/print.js';
import { sendRecord } from '../../output/text.js';
import { followCommand } from '../../output/shell-quote.js';
import { terminalLine } from '../../output/terminal-text.js';

/**
 * `send --async` (the A2A CLI specification's §8.2, §9.5): one SendMessage that does not wait
 * (`returnImmediately`), its answer printed as it came (the task as it stands, with its `taskId` and
 * `contextId`, or the agent's message), and on stderr the command that follows the task (its id the
 * agent's, the agent the user's: each quoted for the shell). Exit 0.
 */
export async function sendAsync(io: Io, port: A2APort, request: TurnRequest, mode: OutputMode, agent: string): Promise<number> {
  checkRequest(request);
  const card = await firstValueFrom(port.card());
  checkInputModes(card, outgoingFiles(request), outgoingData(request));
  const messageId = request.messageId ?? globalThis.crypto.randomUUID();
  const result = await firstValueFrom(port.send({ ...request, messageId, returnImmediately: true }));
  printResult(io, mode, protocolSendResponse(result), sendRecord(result));
  if (result.kind === 'task') {
    warnOutcome(io, result.task.status.state, result.task.status);
    notice(io, `follow it with: ${terminalLine(followCommand(result.task.id, agent))}`);
  }
  return 0;
}
