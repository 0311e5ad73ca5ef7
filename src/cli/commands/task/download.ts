import { mkdir } from 'node:fs/promises';
import { lastValueFrom } from 'rxjs';
import { type Attachment, protocolTask, type Task, within } from '../../../node/index.js';
import { saveAttachments } from '../../turns/attachments.js';
import { notice } from '../../core/io.js';
import type { Call } from '../../core/command.js';
import { printResult } from '../../output/print.js';
import { taskRecord } from '../../output/text.js';
import { terminalLine, terminalName } from '../../output/terminal-text.js';
import { defineTaskCommand, ONE_TASK_OPTIONS, onTask, REQUEST_TIMEOUT_MS } from './common.js';

/** The flags `a4h task download` takes. */
export const TASK_DOWNLOAD_OPTIONS = { ...ONE_TASK_OPTIONS, dir: { type: 'string' } } as const;

/** `a4h task download`. */
export const taskDownload = defineTaskCommand({
  name: 'task download',
  usage: `Usage: a4h task download <task-id>|--task-id ID -a REF [--dir DIR] [-o text|json]

Saves a task's artifacts (GetTask) into a directory: each file part under its own name, made safe (no
directories, no leading dot, never an existing file overwritten: name-1, name-2…), each data part as
data-N.json, each artifact's text as <artifact name>.txt. A file the agent gave by URL is not fetched:
stderr names it. Prints the task's id, context id and state, then one "Saved:" line per file written
(-o json: the protocol's Task; the paths on stderr).
  --dir DIR              where to write (default: the current directory; made when missing)`,
  options: TASK_DOWNLOAD_OPTIONS,
  run: downloadTask,
});

async function downloadTask(call: Call<typeof TASK_DOWNLOAD_OPTIONS>): Promise<number> {
  const { values, io, mode } = call;
  const dir = values.dir ?? '.';
  return onTask(call, async ({ port }, { taskId }) => {
    const task = await lastValueFrom(port.getTask(taskId).pipe(within<Task>(REQUEST_TIMEOUT_MS, 'poll-request', 'get-task')));
    await mkdir(dir, { recursive: true });
    const saved = await saveAttachments(dir, artifactFiles(task));
    for (const part of task.artifacts.flatMap((a) => a.parts)) {
      if (part.kind === 'file' && part.bytes === undefined && part.uri !== undefined)
        notice(io, `not fetched: ${part.name === undefined ? '(unnamed)' : terminalName(part.name)} at ${terminalLine(part.uri)}`);
    }
    if (mode.format === 'json') {
      printResult(io, mode, protocolTask(task), taskRecord(task));
      for (const path of saved) notice(io, `saved ${terminalLine(path)}`);
    } else {
      const record = taskRecord(task);
      printResult(io, mode, protocolTask(task), { fields: [...record.fields, ...saved.map((path) => ['Saved', path] as const)] });
    }
    if (saved.length === 0) notice(io, `task ${terminalLine(taskId)} has no artifact content to save`);
    return 0;
  });
}

/** A task's artifacts as files to write: file and data parts as they are, each artifact's text parts as one text file. */
export function artifactFiles(task: Task): Attachment[] {
  return task.artifacts.flatMap((artifact): Attachment[] => {
    const files: Attachment[] = [];
    const text = artifact.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
    if (text !== '')
      files.push({
        kind: 'file',
        name: `${artifact.name ?? artifact.artifactId}.txt`,
        mediaType: 'text/plain',
        bytes: new TextEncoder().encode(text),
      });
    for (const part of artifact.parts) {
      if (part.kind === 'data') files.push({ kind: 'data', data: part.data, ...(part.mediaType ? { mediaType: part.mediaType } : {}) });
      else if (part.kind === 'file' && part.bytes !== undefined) {
        files.push({
          kind: 'file',
          bytes: part.bytes,
          size: part.bytes.length,
          ...(part.name ? { name: part.name } : {}),
          ...(part.mediaType ? { mediaType: part.mediaType } : {}),
        });
      }
    }
    return files;
  });
}
