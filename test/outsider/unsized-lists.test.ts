import { Keypair } from '@stellar/stellar-sdk';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { AccountType } from '../../src/core/account-type';
import { Star } from '../../src/modules/watchlist/watchlist.entity';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';
import { until } from '../live/support';

/**
 * The cost model counts a list without a size argument (a lot's stars, participants, deposits,
 * callbacks) as 10 items, but answers every row the lot has: a lot starred 1,000 times answers
 * 1,000. Both budgets that read that cost — GRAPHQL_MAX_COST per request and the live budget of an
 * account — promise to bound what one operation (one event) sends; a list that grows after the
 * cost was counted walks past both.
 */
const BUDGET = 100;
const STARS = 1000;
const world = appWithPlatform({ env: { WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT: String(BUDGET), WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: String(BUDGET), GRAPHQL_MAX_COST: String(BUDGET) } });

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

/** Fields in a JSON answer: every key of every object, as the cost counts fields. */
const fieldsIn = (value: unknown): number =>
  Array.isArray(value) ? value.reduce((n: number, v) => n + fieldsIn(v), 0) : value !== null && typeof value === 'object' ? Object.values(value).reduce((n: number, v) => n + 1 + fieldsIn(v), 0) : 0;

describe('a list the cost counts as 10 items, on a lot starred 1,000 times', () => {
  let lotId: string;
  let staffToken: string;
  beforeAll(async () => {
    const { t, platform } = world;
    lotId = (await createLot(t, platform)).id;
    const em = t.orm.em.fork();
    const ids = Array.from({ length: STARS }, () => Keypair.random().publicKey());
    for (const id of ids) em.create(Account, { id, accountType: AccountType.User, platformId: platform.publicKey() });
    await em.flush();
    for (const id of ids) em.create(Star, { accountId: id, lotId });
    await em.flush();
    staffToken = await bearerFor(t, platform.publicKey());
  }, 60_000);

  it('is refused or answered within GRAPHQL_MAX_COST over HTTP, not answered with 1,000 rows', async () => {
    const res = await world.t.client.graphql('query ($id: ID!) { lot(id: $id) { id stars { accountId } } }', { id: lotId }, { bearer: staffToken });
    if (res.body.errors) {
      expect(res.body.errors[0].extensions.code).toBe('query_too_costly');
      return;
    }
    // The cost limit's promise: each field answered was counted.
    expect(res.body.data.lot.stars.length).toBeGreaterThan(0);
    expect(fieldsIn(res.body.data)).toBeLessThanOrEqual(BUDGET);
  });

  it('keeps one lotUpdated event within the live budget of the account that subscribed it', async () => {
    const socket = await openRaw(world.t.port, { address: '127.0.0.41', token: staffToken });
    opened.push(socket);
    socket.subscribe('stars', 'subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id stars { accountId } } }', { lotId });
    await until(
      () => {
        if (socket.messages.some((m) => m.id === 'stars' && m.type !== 'next')) return true;
        if (socket.nexts('stars').length) return true;
        world.t.app.services.live.publishLotChanged(lotId);
        return false;
      },
      10_000,
      () => 'the subscription to start or be refused',
    );
    const refusal = socket.messages.find((m) => m.id === 'stars' && m.type === 'error');
    if (refusal) {
      expect(refusal.payload[0].extensions.code).toBe('subscription_budget_exceeded');
      return;
    }
    const [event] = socket.nexts('stars');
    expect(event.data.lotUpdated.stars.length).toBeGreaterThan(0);
    // WS_SUBSCRIPTION_BUDGET_PER_ACCOUNT bounds what one event can make the account receive.
    expect(fieldsIn(event.data)).toBeLessThanOrEqual(BUDGET);
  });
});
