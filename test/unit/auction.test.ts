import { Money } from '../../src/core/money';
import { minimumNext, refusalOf, resolveProxies, type Proxy, type Standing } from '../../src/modules/bids/bids.auction';

const m = (v: string | number) => new Money(v);
const lot = (highest: number | null, leader: string | null = null): Standing => ({
  startPrice: m(1000),
  minStep: m(50),
  maxStep: m(500),
  highest: highest === null ? null : m(highest),
  leader,
});
const proxy = (id: string, max: number, at = 0): Proxy => ({ participantId: id, accountId: `G${id}`, max: m(max), since: new Date(1_700_000_000_000 + at), digest: null });
const plan = (s: Standing, proxies: Proxy[]) => resolveProxies(s, proxies).map((b) => `${b.participantId}:${b.amount.toFixed(2)}`);

describe('bidding rules', () => {
  it('asks the start price first, then the highest bid plus the minimal step', () => {
    expect(minimumNext(lot(null)).toFixed(2)).toBe('1000.00');
    expect(minimumNext(lot(1200)).toFixed(2)).toBe('1250.00');
  });

  it.each([
    [null, 999.99, 'bid_too_low'],
    [null, 1000, null],
    [1200, 1249.99, 'bid_too_low'],
    [1200, 1250, null],
    [1200, 1700, null],
    [1200, 1700.01, 'bid_step_invalid'],
  ])('with highest %p a bid of %p is %p', (highest, amount, expected) => {
    expect(refusalOf(lot(highest), m(amount))).toBe(expected);
  });
});

describe('max bids', () => {
  it('bids the least amount that leads for a lone max bid', () => {
    expect(plan(lot(null), [proxy('a', 5000)])).toEqual(['a:1000.00']);
    expect(plan(lot(1200, 'x'), [proxy('a', 5000)])).toEqual(['a:1250.00']);
  });

  it('does nothing while the leading max bid is unchallenged', () => {
    expect(plan(lot(1250, 'a'), [proxy('a', 5000)])).toEqual([]);
  });

  it('raises the leader by the minimal step over a plain bid, capped at its max', () => {
    expect(plan(lot(2000, 'x'), [proxy('a', 5000)])).toEqual(['a:2050.00']);
    expect(plan(lot(2000, 'x'), [proxy('a', 2020)])).toEqual(['a:2020.00']);
    expect(plan(lot(2000, 'x'), [proxy('a', 2000)])).toEqual([]);
  });

  it('lets the higher max lead at the lower max plus the step, recording the loser’s last attempt', () => {
    expect(plan(lot(1000, 'a'), [proxy('a', 3000, 0), proxy('b', 2000, 1)])).toEqual(['b:2000.00', 'a:2050.00']);
    expect(plan(lot(1000, 'a'), [proxy('a', 2000, 0), proxy('b', 3000, 1)])).toEqual(['a:2000.00', 'b:2050.00']);
  });

  it('lets the earlier of two equal max bids lead at its max', () => {
    expect(plan(lot(1000, 'b'), [proxy('a', 2000, 0), proxy('b', 2000, 5)])).toEqual(['a:2000.00']);
    expect(plan(lot(2000, 'a'), [proxy('a', 2000, 0), proxy('b', 2000, 5)])).toEqual([]);
  });

  it('caps the winner at its own max when the runner-up is close', () => {
    expect(plan(lot(1000, 'x'), [proxy('a', 2030, 0), proxy('b', 2000, 1)])).toEqual(['b:2000.00', 'a:2030.00']);
  });

  it('ignores exhausted max bids', () => {
    expect(plan(lot(2500, 'x'), [proxy('a', 2000), proxy('b', 2500)])).toEqual([]);
  });

  it('never plans a bid above a max, and plans strictly increasing amounts', () => {
    for (let i = 0; i < 500; i++) {
      const highest = Math.random() < 0.2 ? null : 1000 + Math.floor(Math.random() * 40) * 25;
      const proxies = Array.from({ length: 1 + Math.floor(Math.random() * 4) }, (_, k) => proxy(`p${k}`, 900 + Math.floor(Math.random() * 80) * 25, Math.floor(Math.random() * 3)));
      const leader = highest === null ? null : Math.random() < 0.5 ? proxies[0].participantId : 'x';
      const s = lot(highest, leader);
      const bids = resolveProxies(s, proxies);
      let last = highest === null ? m(-1) : m(highest);
      for (const b of bids) {
        expect(b.amount.gt(last)).toBe(true);
        expect(b.amount.lte(proxies.find((p) => p.participantId === b.participantId)!.max)).toBe(true);
        last = b.amount;
      }
    }
  });
});

describe('max bids and a reserve', () => {
  const reserved = (highest: number | null, leader: string | null = null, reserve = 1550): Standing => ({ ...lot(highest, leader), reserve: m(reserve) });

  it('bids the reserve when the winning max reaches it and the least amount that leads is under it', () => {
    expect(plan(reserved(null), [proxy('a', 3000)])).toEqual(['a:1550.00']);
    expect(plan(reserved(1000, 'x'), [proxy('a', 3000)])).toEqual(['a:1550.00']);
    expect(plan(reserved(1000, 'x'), [proxy('a', 1550)])).toEqual(['a:1550.00']);
    expect(plan(reserved(1000, 'b'), [proxy('a', 3000), proxy('b', 1200)])).toEqual(['b:1200.00', 'a:1550.00']);
  });

  it('bids as before when the max is under the reserve, the reserve is met, or beating the rival passes it', () => {
    expect(plan(reserved(1000, 'x'), [proxy('a', 1549.99)])).toEqual(['a:1050.00']);
    expect(plan(reserved(1600, 'x'), [proxy('a', 3000)])).toEqual(['a:1650.00']);
    expect(plan(reserved(1000, 'b'), [proxy('a', 3000), proxy('b', 1549.99)])).toEqual(['b:1549.99', 'a:1599.99']);
  });

  it('raises a leading max bid alone to the reserve, once', () => {
    expect(plan(reserved(1000, 'a'), [proxy('a', 3000)])).toEqual(['a:1550.00']);
    expect(plan(reserved(1550, 'a'), [proxy('a', 3000)])).toEqual([]);
    expect(plan(reserved(1000, 'a'), [proxy('a', 1500)])).toEqual([]);
  });
});
