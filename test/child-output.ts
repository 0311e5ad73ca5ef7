/** A child process's output, collected to its end. */
import type { ChildProcess } from 'node:child_process';

/** What a child said and how it ended. */
export interface ChildOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects `child`'s stdout and stderr (UTF-8) until it closes; SIGKILLs it after `timeoutMs`. */
export function childOutput(child: ChildProcess, timeoutMs = 20_000): Promise<ChildOutput> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
