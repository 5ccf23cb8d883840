import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isGoneProcess, PID_NAMESPACE } from '@quarry/core';

/**
 * A new lease owner's name: the machine's host name, the PID namespace and the PID of this
 * process, and a random part (each worker of a process is an owner of its own). Another process on
 * the same machine reads from it whether the owner's process still runs (see {@link isGoneOwner}).
 */
export function newOwner(): string {
  return [hostname(), PID_NAMESPACE, process.pid, randomUUID()].join(' ');
}

/**
 * Whether `owner` (see {@link newOwner}) was a process of this machine and PID namespace that no
 * longer runs: a crawl killed with SIGKILL, or by the kernel out of memory, left its tasks leased,
 * and the next process waited a whole lease (60 s) to take them up, showing them "in flight".
 * False whenever it cannot tell: another machine or container, an owner named by an older
 * version, a PID in use (by a new process given the same number too: the lease then expires as
 * before). Nothing is lost either way; an owner thought gone that still runs (it cannot, on this
 * machine) would at worst see its task done twice, as after an expired lease.
 */
export function isGoneOwner(owner: string): boolean {
  const [host, namespace, pidText, id, ...rest] = owner.split(' ');
  if (id === undefined || rest.length > 0) return false;
  return isGoneProcess({ host: host ?? '', namespace: namespace ?? '', pid: Number(pidText) });
}
