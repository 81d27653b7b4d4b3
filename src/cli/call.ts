// `npm run call -- [--as KEYFILE | --unsigned] [--base URL] METHOD PATH [JSON]`: one request to
// the service, signed as docs/signing.md says, so that any operation can be tried without code.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Api, jsonPayload } from './api';
import { keyFileOf, keysDir, readKeyFile } from './keys';
import { out, runCommand, UsageError } from './run';

const USAGE = `usage: npm run call -- [--as KEYFILE | --unsigned] [--base URL] METHOD PATH [JSON]

Sends one request, signed as docs/signing.md says, and prints the answer's status and body.
Exit code 0 for a status below 400, 1 otherwise, 2 for usage errors.

  --as KEYFILE  sign with this key file (a secret seed on one line), or with one that npm run demo
                wrote, by name: platform, admin, alice, bob (DATA_DIR/keys/NAME.key). Default:
                DATA_DIR/keys/admin.key when it exists, else the request goes unsigned
  --unsigned    send no signature
  --base URL    the service (default http://127.0.0.1:PORT, PORT from the environment, else 8080)
  JSON          the request document

examples:
  npm run call -- GET '/lots?filter[maker]=Toyota&sort=-price&include=bids'
  npm run call -- --as alice GET /notifications
  npm run call -- PATCH /deposits/1 '{"data": {"type": "deposits", "id": "1", "attributes": {"state": "returned"}}}'
  npm run call -- POST /graphql '{"query": "{ me { id accountType } }"}'`;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

runCommand(USAGE, { as: { type: 'string' }, unsigned: { type: 'boolean' } }, async ({ values, positionals, config, base }) => {
  const [method = '', target = '', json, ...rest] = positionals;
  if (!METHODS.includes(method.toUpperCase())) throw new UsageError(`METHOD must be one of ${METHODS.join(', ')}`);
  if (!target.startsWith('/')) throw new UsageError('PATH must start with /, e.g. /lots');
  if (rest.length) throw new UsageError(`unexpected ${rest.join(' ')} (quote the JSON as one argument)`);
  if (json !== undefined) {
    try {
      JSON.parse(json);
    } catch (e) {
      throw new UsageError(`JSON is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (values.as !== undefined && values.unsigned) throw new UsageError('--as and --unsigned exclude each other');

  const dir = keysDir(config.DATA_DIR);
  const defaultKey = path.join(dir, 'admin.key');
  const keyFile = values.unsigned ? null : typeof values.as === 'string' ? keyFileOf(values.as, dir) : existsSync(defaultKey) ? defaultKey : null;
  const keypair = keyFile ? readKeyFile(keyFile) : null;
  process.stderr.write(keypair ? `signed as ${keypair.publicKey()} (${keyFile})\n` : 'unsigned\n');

  const res = await new Api(base, keypair).send(method.toUpperCase(), target, json === undefined ? null : jsonPayload(json));
  out(`${res.status} ${res.statusText}`);
  if (res.body !== null) out(typeof res.body === 'string' ? res.body : JSON.stringify(res.body, null, 2));
  return res.status < 400 ? 0 : 1;
});
