import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The postmaster of the cluster in `dataDir` (its lock file names it) and every process it forked. */
function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number.parseInt(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0], 10);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // Fields after the command's closing parenthesis: state, then the parent's PID.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/**
 * Stops (SIGSTOP) every process of a test's own PostgreSQL, never the machine's: its sockets stay
 * open and its kernel acknowledges what is sent, as with a server that hangs. Answers the thaw
 * (SIGCONT), which may be called more than once.
 */
export function freezePostgres(dataDir: string): () => void {
  const frozen = postgresProcesses(dataDir);
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
  };
}
