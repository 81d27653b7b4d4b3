// The embedded PostgreSQL's parent process (src/db/embedded.ts forks it). PostgreSQL has no
// option to exit with its parent, so a service killed with SIGKILL would leave its server
// running, holding DATA_DIR and the port. The keeper's lifeline is its IPC channel to the
// service: the kernel closes it however the service ends, and the keeper then stops the server.
// Plain JavaScript, so that the same file runs from src/ (under jest) and from dist/.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { constants } from 'node:os';

const { postgres, args, log, uid, gid, stopTimeoutMs } = JSON.parse(process.argv[2]);
const out = openSync(log, 'a');
const server = spawn(postgres, args, { uid, gid, stdio: ['ignore', out, out], env: { ...process.env, LC_ALL: 'C' } });

let stopping = false;
/** Fast shutdown (SIGINT): open transactions roll back, nothing committed is lost; immediate (SIGQUIT) if it hangs. */
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGINT');
  setTimeout(() => server.kill('SIGQUIT'), stopTimeoutMs).unref();
}
process.on('disconnect', stop);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);

server.once('error', () => process.exit(127));
// The service reads the server's end from the keeper's: its code, or 128 + the signal's number, as a shell does.
server.once('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
