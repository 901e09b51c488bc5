import fs from 'node:fs';
import os from 'node:os';

/**
 * Who holds an in-flight Idempotency-Key: this process, named so that another process on the same machine
 * can tell whether it still runs. A process id alone is not enough (ids are reused, and a restarted
 * container's server is pid 1 again), so the name also holds the process's start time and the boot it
 * belongs to: `host|boot|pid|start`.
 */
let current: string | undefined;

export function processOwner(): string {
  current ??= [os.hostname(), bootId(), process.pid, startOf(process.pid) ?? 'unknown'].join('|');
  return current;
}

/**
 * True only when the owner is certainly gone: on this machine, and its process no longer runs (no such
 * pid, or a pid now held by a process started at another time, or a previous boot). An owner on another
 * machine, or one that cannot be checked, is taken as alive: its lease then expires with time.
 */
export function ownerGone(owner: string | null): boolean {
  if (!owner) return false;
  const [host, boot, pidText, start] = owner.split('|');
  if (host !== os.hostname() || !pidText || !start) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (boot !== bootId()) return boot !== 'unknown' && bootId() !== 'unknown';
  if (owner === processOwner()) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  const now = startOf(pid);
  return start !== 'unknown' && now !== null && now !== start;
}

function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8) || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The start time of a process in clock ticks since boot (Linux), or null where it cannot be read. */
function startOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
