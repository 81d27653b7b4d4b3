// The embedded PostgreSQL's parent process (src/db/embedded.ts forks it). PostgreSQL has no
// option to exit with its parent, so a service killed with SIGKILL would leave its server
// running, holding DATA_DIR and the port. The keeper's lifeline is its IPC channel to the
// service: the kernel closes it however the service ends, and the keeper then stops the server.
// Plain JavaScript, so that the same file runs from src/ (under jest) and from dist/.
import { spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

const { postgres, args, log, uid, gid, stopTimeoutMs } = JSON.parse(process.argv[2]);
/** How long an immediate shutdown (SIGQUIT) may take before the server is killed: it has nothing to write. */
const KILL_AFTER_MS = 5000;
const out = openSync(log, 'a');
const server = spawn(postgres, args, { uid, gid, stdio: ['ignore', out, out], env: { ...process.env, LC_ALL: 'C' } });

let stopping = false;
/**
 * Fast shutdown (SIGINT): open transactions roll back, nothing committed is lost; immediate
 * (SIGQUIT) if it hangs; killed if even that hangs: a stopped (SIGSTOP) or hung server acts on neither.
 */
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGINT');
  setTimeout(() => server.kill('SIGQUIT'), stopTimeoutMs).unref();
  setTimeout(kill, stopTimeoutMs + KILL_AFTER_MS).unref();
}

/**
 * SIGKILL, which acts on a stopped server too; its next start recovers from the write-ahead log.
 * The server's children first, listed while it is stopped and cannot fork more: a stopped child
 * would outlive it, attached to its shared memory. Without /proc, the postmaster alone: children
 * that run exit when it is gone.
 */
function kill() {
  stopping = true;
  send(server.pid, 'SIGSTOP');
  for (const pid of childrenOf(server.pid)) send(pid, 'SIGKILL');
  send(server.pid, 'SIGKILL');
}

function childrenOf(parent) {
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
    } catch {
      return false;
    }
  });
}

function send(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

process.on('disconnect', stop);
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, stop);
// The service's stop ran out of time, or was forced: the server is not waited for.
process.on('SIGUSR2', kill);

server.once('error', () => process.exit(127));
// The service reads the server's end from the keeper's: its code, or 128 + the signal's number, as a shell does.
server.once('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
