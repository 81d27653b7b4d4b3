import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Deposit, DepositState, Participant, ParticipantState, WinnerDetails } from '../../src/modules/trading/trading.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';

// Money on the rows of a lot: bids, participants, deposits, winner details, each in its currency,
// beside the deprecated String fields it replaces and agreeing with them.

const world = appWithPlatform();
let gelLot: string;
let usdLot: string;
let bidder: CreatedAccount;

beforeAll(async () => {
  const { t, platform } = world;
  gelLot = String((await createLot(t, platform, { ...ENG_LOT, currency: 'GEL', deposit: '75.25' })).id);
  usdLot = String((await createLot(t, platform, ENG_LOT)).id);
  bidder = await createAccount(t, platform);
  const em = t.orm.em.fork();
  for (const [lotId, amounts] of [[gelLot, ['1000.10', '1100.20']], [usdLot, ['2000.00']]] as const) {
    const participant = em.create(Participant, { lotId, accountId: bidder.id, state: ParticipantState.Pending, currentBid: new Money(amounts[amounts.length - 1]), maxBid: new Money('5000.50') });
    await em.flush();
    em.create(Deposit, { lotId, participantId: participant.id, accountId: bidder.id, amount: new Money('75.25'), currency: lotId === gelLot ? 'GEL' : 'USD', state: DepositState.Paid });
    for (const amount of amounts) {
      em.create(Bid, { lotId, participantId: participant.id, accountId: bidder.id, amount: new Money(amount) });
      await em.flush();
    }
  }
  em.create(WinnerDetails, { lotId: gelLot, feeAmount: new Money('120.00'), transportationFee: new Money('300.40'), feeCurrency: 'EUR' });
  await em.flush();
});

const asOrganizer = (query: string, variables?: Record<string, unknown>) => world.t.client.as(world.platform).graphql(query, variables);

describe('Money on the rows of a lot', () => {
  it('gives bids, participants, deposits and winner details their amounts as Money in their currencies', async () => {
    const res = await asOrganizer(
      `query($id: ID!) { lot(id: $id) {
        bidsConnection(first: 5) { nodes { amount amountMoney { amount currency eur: in(currency: EUR) { currency } } } }
        participants { currentBid maxBid currentBidMoney { amount currency } maxBidMoney { amount currency } }
        deposits { amount currency amountMoney { amount currency } }
        winnerDetails { feeAmount transportationFee feeCurrency fee { amount currency } transportationFeeMoney { amount currency } }
      } }`,
      { id: gelLot },
    );
    expect(res.body.errors).toBeUndefined();
    const lot = res.body.data.lot;
    expect(lot.bidsConnection.nodes).toEqual([
      { amount: '1100.20', amountMoney: { amount: '1100.20', currency: 'GEL', eur: { currency: 'EUR' } } },
      { amount: '1000.10', amountMoney: { amount: '1000.10', currency: 'GEL', eur: { currency: 'EUR' } } },
    ]);
    expect(lot.participants).toEqual([{ currentBid: '1100.20', maxBid: '5000.50', currentBidMoney: { amount: '1100.20', currency: 'GEL' }, maxBidMoney: { amount: '5000.50', currency: 'GEL' } }]);
    expect(lot.deposits).toEqual([{ amount: '75.25', currency: 'GEL', amountMoney: { amount: '75.25', currency: 'GEL' } }]);
    expect(lot.winnerDetails).toEqual({
      feeAmount: '120.00', transportationFee: '300.40', feeCurrency: 'EUR', fee: { amount: '120.00', currency: 'EUR' }, transportationFeeMoney: { amount: '300.40', currency: 'EUR' },
    });
  });

  it('answers each bid in its own lot’s currency, and a participant without bids null', async () => {
    const fresh = await createAccount(world.t, world.platform);
    const em = world.t.orm.em.fork();
    em.create(Participant, { lotId: usdLot, accountId: fresh.id, state: ParticipantState.Pending });
    await em.flush();
    const res = await world.t.client.as(bidder.keypair).graphql(`query($id: String!) { account(id: $id) { bids { lotId amountMoney { amount currency } } } }`, { id: bidder.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.account.bids).toEqual([
      { lotId: usdLot, amountMoney: { amount: '2000.00', currency: 'USD' } },
      { lotId: gelLot, amountMoney: { amount: '1100.20', currency: 'GEL' } },
      { lotId: gelLot, amountMoney: { amount: '1000.10', currency: 'GEL' } },
    ]);
    const own = await world.t.client.as(fresh.keypair).graphql(`query($id: ID!) { lot(id: $id) { viewerParticipation { currentBidMoney { amount } maxBidMoney { amount } } } }`, { id: usdLot });
    expect(own.body.data.lot.viewerParticipation).toEqual({ currentBidMoney: null, maxBidMoney: null });
  });

  it('reads the lots’ currencies for a page of bids in one statement, whatever the page holds', async () => {
    const statementsFor = async (last: number) => {
      const query = `query($id: String!) { account(id: $id) { bids(last: ${last}) { amountMoney { amount currency } } } }`;
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await world.t.client.as(bidder.keypair).graphql(query, { id: bidder.id });
      });
      expect(answer.body.data.account.bids).toHaveLength(last);
      return sent.length;
    };
    expect(await statementsFor(3)).toBe(await statementsFor(1));
  });
});
