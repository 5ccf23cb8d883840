import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from '@jest/globals';
import { isGoneOwner, newOwner } from './owners.js';

/** A child process that runs until killed, and its PID. */
function runningChild(): { pid: number; stop: () => Promise<void> } {
  const proc = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    pid: proc.pid ?? 0,
    stop: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** `owner` with its PID replaced. */
const withPid = (owner: string, pid: number) => owner.replace(/ \d+ (?=\S+$)/, ` ${pid} `);

describe('lease owners', () => {
  it('names this machine, its PID namespace and this process, distinctly for each worker', () => {
    const [a, b] = [newOwner(), newOwner()];
    expect(a).not.toBe(b);
    expect(a.startsWith(`${hostname()} `)).toBe(true);
    expect(a.split(' ')[2]).toBe(String(process.pid));
  });

  it('tells a process that has ended from one that runs', async () => {
    const child = runningChild();
    const owner = withPid(newOwner(), child.pid);
    expect(isGoneOwner(owner)).toBe(false);
    await child.stop();
    expect(isGoneOwner(owner)).toBe(true);
  });

  it('says nothing of this process, another machine, another PID namespace or an older name', async () => {
    const child = runningChild();
    await child.stop();
    const gone = withPid(newOwner(), child.pid);
    expect(isGoneOwner(gone)).toBe(true);
    expect(isGoneOwner(newOwner())).toBe(false);
    expect(isGoneOwner(gone.replace(/^\S+/, 'another-machine'))).toBe(false);
    const [host, , ...rest] = gone.split(' ');
    expect(isGoneOwner([host, 'pid:[1]', ...rest].join(' '))).toBe(false);
    expect(isGoneOwner('0b7e3f2c-5d9a-4c55-9f43-2a8f0f0f3c11')).toBe(false);
    expect(isGoneOwner(withPid(gone, 0))).toBe(false);
  });
});
