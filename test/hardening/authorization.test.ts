import type { Keypair } from '@stellar/stellar-sdk';
import { buildAppSchema } from '../../src/graphql/schema';
import type { TestApp } from '../helpers/app';
import type { RequestOptions, TestResponse } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWith } from '../helpers/world';
import { blacklist } from '../blacklist/support';
import type { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { emit } from '../notifications/notifications.helpers';
import { fileRequest } from '../requests/requests.helpers';
import { depositOf, join } from '../trading/trading.helpers';
import { connect, type Socket } from '../live/support';
import { GRAPHQL, REST, ROLES, SUBSCRIPTIONS, type Fixture, type Role } from './authorization.table';
import { tally } from './support/answers';
import { callOf } from './support/graphql-calls';
import { badTokens, replayed, tampered } from './support/identities';
import { Leaks } from './support/leaks';
import { note } from '../helpers/notes';

jest.setTimeout(600_000);

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const w = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const phone = (n: number) => ({ attributes: { phone_number: `+99555510${String(n).padStart(4, '0')}` } });
  const accounts: Record<Exclude<Role, 'platform' | 'otherPlatform'>, CreatedAccount> & Record<'stopped' | 'target', CreatedAccount> = {
    admin,
    broker: await createAccount(t, platform, { type: 'broker' }),
    user: await createAccount(t, platform, phone(1)),
    paused: await createAccount(t, platform, phone(2)),
    stopped: await createAccount(t, platform, phone(3)),
    target: await createAccount(t, platform, phone(4)),
    otherAdmin: await createAccount(t, otherPlatform, { type: 'admin' }),
    otherUser: await createAccount(t, otherPlatform, phone(5)),
  };
  await blacklist(t, platform, accounts.paused.id, 'paused');
  await blacklist(t, platform, accounts.stopped.id, 'stopped');
  const lot = await createLot(t, admin.keypair);
  const participant = await join(t, accounts.user.keypair, String(lot.id));
  const fixture: Fixture = {
    userId: accounts.user.id,
    targetId: accounts.target.id,
    lotId: String(lot.id),
    platformId: platform.publicKey(),
    participantId: String(participant.id),
    depositId: String((await depositOf(t, participant)).id),
    requestId: String((await fileRequest(t, accounts.user.keypair)).id),
    notificationId: (await emit(t, 6 as NotificationType, [accounts.user.id]))[0],
  };
  const keys: Record<Role | 'stopped', Keypair> = {
    platform,
    otherPlatform,
    admin: admin.keypair,
    broker: accounts.broker.keypair,
    user: accounts.user.keypair,
    paused: accounts.paused.keypair,
    stopped: accounts.stopped.keypair,
    otherAdmin: accounts.otherAdmin.keypair,
    otherUser: accounts.otherUser.keypair,
  };
  const tokens = await badTokens(t, accounts.user.id, platform.publicKey());
  const leaks = await Leaks.of(t, { platform, otherPlatform, accounts });
  return { fixture, keys, tokens, leaks, accounts };
});

/** The status a caller was answered: a GraphQL error's own, else the HTTP status. */
const statusOf = (res: TestResponse) => res.body?.errors?.[0]?.extensions?.status ?? res.status;

interface Cell {
  op: string;
  who: string;
  expected: number;
  got: number;
  text: string;
}

const cells: Cell[] = [];
function check(op: string, who: string, expected: number, res: TestResponse): void {
  cells.push({ op, who, expected, got: statusOf(res), text: res.text.slice(0, 200) });
}

afterAll(() => {
  const byWho = new Map<string, number[]>();
  for (const c of cells) byWho.set(c.who, [...(byWho.get(c.who) ?? []), c.got]);
  note(
    `authorization audit: ${new Set(cells.map((c) => c.op)).size} operations, ${cells.length} calls\n` +
      [...byWho.entries()].map(([who, s]) => `${who.padEnd(14)} ${String(s.length).padStart(4)} calls  ${tally(s)}`).join('\n') +
      `\nleak scan: ${w.leaks.scanned} answers scanned for ${w.leaks.secretCount} secrets`,
  );
});

const mismatches = (from = 0) => cells.slice(from).filter((c) => c.expected !== c.got).map((c) => `${c.op} as ${c.who}: expected ${c.expected}, got ${c.got} ${c.text}`);

describe('authorization audit', () => {
  test('every REST route and every GraphQL query and mutation has a row of the table', () => {
    const routes = w.t.app.router.jsonApiOperations.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(routes.filter((r) => !REST[r])).toEqual([]);
    expect(Object.keys(REST).filter((r) => !routes.includes(r))).toEqual([]);
    const schema = buildAppSchema();
    const fields = [...Object.keys(schema.getQueryType()?.getFields() ?? {}), ...Object.keys(schema.getMutationType()?.getFields() ?? {})];
    expect(fields.filter((f) => !GRAPHQL[f])).toEqual([]);
    expect(Object.keys(GRAPHQL).filter((f) => !fields.includes(f))).toEqual([]);
    expect(Object.keys(schema.getSubscriptionType()?.getFields() ?? {}).sort()).toEqual(Object.keys(SUBSCRIPTIONS).sort());
  });

  test('REST: every operation answers each caller its exact status', async () => {
    const t: TestApp = w.t;
    const { fixture, keys, tokens, leaks } = w;
    const before = cells.length;
    const routes = t.app.router.jsonApiOperations;
    expect(routes.length).toBe(Object.keys(REST).length);
    for (const route of routes) {
      const op = `${route.method.toUpperCase()} ${route.path}`;
      const row = REST[op];
      const method = route.method.toUpperCase();
      const { target, body } = row.call(fixture);
      const opts: RequestOptions = body === undefined ? {} : { body };
      const anon = await t.client.request(method, target, opts);
      leaks.scan('anon', `${op} unsigned`, anon.text);
      check(op, 'unsigned', row.auth ? 401 : (row.anon as number), anon);
      for (const role of row.order ?? ROLES) {
        const res = await t.client.as(keys[role]).request(method, target, opts);
        leaks.scan(role, `${op} as ${role}`, res.text);
        check(op, role, row.roles[role] ?? row.roles.others, res);
      }
      check(op, 'stopped', 403, await t.client.as(keys.stopped).request(method, target, opts));
      check(op, 'tampered', 401, await tampered(t, keys.user, method, target, opts));
      const [first, second] = await replayed(t, keys.user, method, target, opts);
      check(op, 'replayed', WRITES.has(method) ? 401 : first.status, second);
      for (const [name, token] of Object.entries(tokens)) check(op, name, 401, await t.client.request(method, target, { ...opts, bearer: token }));
    }
    expect(new Set(cells.slice(before).map((c) => c.op)).size).toBe(routes.length);
    expect(mismatches()).toEqual([]);
  });

  test('GraphQL: anonymous calls of fields that need a caller answer 401, bad credentials 401 and a stopped account 403', async () => {
    const t: TestApp = w.t;
    const { fixture, keys, tokens, leaks } = w;
    const before = cells.length;
    const schema = buildAppSchema();
    const ids = { accountId: fixture.userId, lotId: fixture.lotId };
    for (const [kind, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
      for (const field of Object.values(type?.getFields() ?? {})) {
        const op = `${kind} ${field.name}`;
        const { query, variables } = callOf(kind, field, ids);
        const anon = await t.client.graphql(query, variables);
        const row = GRAPHQL[field.name];
        leaks.scan('anon', `${op} unsigned`, anon.text);
        if (row.anon !== undefined) check(op, 'unsigned', row.anon, anon);
        else if (row.auth) check(op, 'unsigned', 401, anon);
        else if ([401, 403].includes(statusOf(anon))) check(op, 'unsigned', 200, anon);
        if (kind === 'query') {
          for (const role of ROLES) leaks.scan(role, `${op} as ${role}`, (await t.client.as(keys[role]).graphql(query, variables)).text);
        }
        check(op, 'stopped', 403, await t.client.as(keys.stopped).graphql(query, variables));
        check(op, 'tampered', 401, await tampered(t, keys.user, 'POST', '/graphql', { body: { query, variables }, contentType: 'application/json' }));
        for (const [name, token] of Object.entries(tokens)) check(op, name, 401, await t.client.graphql(query, variables, { bearer: token }));
      }
    }
    expect(cells.length).toBeGreaterThan(before);
    expect(mismatches(before)).toEqual([]);
  });

  test('subscriptions: anonymous sockets may follow public feeds only; bad tokens and a stopped account are refused at connect', async () => {
    const t: TestApp = w.t;
    const { fixture, keys, tokens } = w;
    const schema = buildAppSchema();
    const ids = { accountId: fixture.userId, lotId: fixture.lotId };
    const sockets: Socket[] = [];
    const before = cells.length;
    try {
      for (const field of Object.values(schema.getSubscriptionType()?.getFields() ?? {})) {
        const op = `subscription ${field.name}`;
        const { query, variables } = callOf('subscription', field, ids);
        const anonymous = connect(t);
        sockets.push(anonymous);
        const feed = anonymous.subscribe(query, variables);
        // A refusal comes at once; a public feed stays open and silent.
        await new Promise((r) => setTimeout(r, 300));
        const code = feed.errors[0]?.extensions?.code ?? feed.errors[0]?.code;
        cells.push({ op, who: 'unsigned', expected: SUBSCRIPTIONS[field.name].auth ? 401 : 200, got: code === 'unauthenticated' ? 401 : feed.errors.length ? 0 : 200, text: JSON.stringify(feed.errors).slice(0, 200) });
        for (const [name, as] of [...Object.entries(tokens), ['stopped', keys.stopped]] as [string, string | Keypair][]) {
          const socket = connect(t, as);
          sockets.push(socket);
          socket.subscribe(query, variables);
          // The 5 s wait outlives the test when the socket closes first: it holds no worker open.
          const closed = await Promise.race([socket.closed, new Promise<null>((r) => setTimeout(() => r(null), 5000).unref())]);
          // graphql-ws closes a refused connection with 4403 Forbidden.
          cells.push({ op, who: name, expected: 4403, got: closed?.code ?? 0, text: JSON.stringify(closed) });
        }
      }
    } finally {
      await Promise.all(sockets.map((s) => s.dispose()));
    }
    // One cell per subscription field for the anonymous socket, each bad token and the stopped account.
    expect(Object.keys(SUBSCRIPTIONS).length).toBeGreaterThan(0);
    expect(cells.length - before).toBe(Object.keys(SUBSCRIPTIONS).length * (Object.keys(tokens).length + 2));
    expect(mismatches(before)).toEqual([]);
  });

  test('no answer shows another account its email, phone, password hash, private document, deposit or bid identity', async () => {
    await w.leaks.probeTrading(w.t);
    expect(w.leaks.scanned).toBeGreaterThan(500);
    expect(w.leaks.found).toEqual([]);
    // The scan recognises each kind of secret where it may be shown, so it would anywhere else.
    const { accounts } = w;
    expect([...w.leaks.seen].sort()).toEqual(
      expect.arrayContaining([`email of ${accounts.user.id}`, `phone of ${accounts.user.id}`, 'a private document id', expect.stringMatching(/^the bidder on lot /)]),
    );
  });
});
