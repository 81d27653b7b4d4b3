import type { Keypair } from '@stellar/stellar-sdk';
import { DomainError } from '../../src/core/errors';
import { Lot, LotType } from '../../src/modules/lots/lots.entity';
import { importLots, type ImportProgress, type ImportSource } from '../../src/modules/lots/lots.import';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { feedLine, fixtureLines, fixtureRecords } from './helpers';

let t: TestApp;
let platform: Keypair;
beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
}, 60_000);
afterAll(() => t.close());

const run = (source: ImportSource, lines: AsyncIterable<string> | Iterable<string>, opts: { batchSize?: number; platformId?: string; onProgress?: (p: ImportProgress) => void } = {}) =>
  importLots(t.orm.em.fork(), source, lines, { platformId: platform.publicKey(), ...opts });

const lotOf = (lotType: LotType, sourceLotId: string) => t.orm.em.fork().findOneOrFail(Lot, { lotType, sourceLotId });

/** Every lot a query finds, following links.next. */
async function allMatching(query: string): Promise<any[]> {
  const found: any[] = [];
  let target: string | undefined = `/lots?page[limit]=100&${query}`;
  while (target) {
    const res: { status: number; text: string; body: any } = await t.client.get(target);
    if (res.status !== 200) throw new Error(`${target}: ${res.status} ${res.text}`);
    found.push(...res.body.data);
    const next: URL | null = res.body.links.next ? new URL(res.body.links.next, t.baseUrl) : null;
    target = next ? next.pathname + next.search : undefined;
  }
  return found;
}

describe('importing the sample feeds', () => {
  const recordsA = fixtureRecords('partnerA');
  const recordsB = fixtureRecords('partnerB');

  it('imports every line of the partnerA feed as a partnerA lot of the platform', async () => {
    expect(recordsA.length).toBeGreaterThanOrEqual(1000);
    const progress: ImportProgress[] = [];
    const summary = await run('partnerA', fixtureLines('partnerA'), { onProgress: (p) => progress.push(p) });
    expect(summary).toEqual({ source: 'partnerA', lines: recordsA.length, created: recordsA.length, updated: 0, unchanged: 0, rejected: 0, rejections: [] });
    expect(progress.at(-1)).toEqual({ lines: recordsA.length, created: recordsA.length, updated: 0, unchanged: 0, rejected: 0 });
    const em = t.orm.em.fork();
    expect(await em.count(Lot, { lotType: LotType.PartnerA })).toBe(recordsA.length);
    expect(await em.count(Lot, { lotType: LotType.PartnerA, organizerId: platform.publicKey(), publisherId: platform.publicKey() })).toBe(recordsA.length);
  });

  it('shows an imported lot with its external-source details', async () => {
    const record = recordsA[1];
    const lot = await lotOf(LotType.PartnerA, String(record.lot_id));
    const res = await t.client.get(`/lots/${lot.id}`);
    expect(res.status).toBe(200);
    const start = typeof record.start_time === 'number' ? record.start_time : Date.parse(record.start_time) / 1000;
    const duration = record.duration ?? record.end_time - start;
    expect(res.body.data.attributes).toMatchObject({
      lot_type: 2,
      lot_type_str: 'lot_type_partnerA',
      lot_state: 1,
      currency: 'USD',
      start_price: Number(record.start_price).toFixed(2),
      deposit: '0.00',
      min_step: '0.00',
      max_step: '0.00',
      start_time: new Date(start * 1000).toISOString().replace('.000Z', 'Z'),
      duration: String(duration),
      end_time: new Date((start + duration) * 1000).toISOString().replace('.000Z', 'Z'),
      organizer_id: platform.publicKey(),
      publisher_id: platform.publicKey(),
      details: {
        ...record.details,
        lot_name: `${record.details.year} ${record.details.maker} ${record.details.model}`,
        partnerA_lot_id: Number(record.lot_id),
      },
    });
    expect(lot).toMatchObject({ yardNumber: record.details.yard_number, saleStatus: record.details.sale_status, vin: record.details.vin_code, country: record.details.country });
  });

  it('re-importing the feed creates nothing and rewrites nothing', async () => {
    const em = t.orm.em.fork();
    const [before] = await em.getConnection().execute<{ at: string }[]>('select max(updated_at)::text as at from lots where lot_type = 2');
    const summary = await run('partnerA', fixtureLines('partnerA'));
    expect(summary).toMatchObject({ created: 0, updated: 0, unchanged: recordsA.length, rejected: 0 });
    const [after] = await em.getConnection().execute<{ at: string }[]>('select max(updated_at)::text as at from lots where lot_type = 2');
    expect(after.at).toBe(before.at);
    expect(await em.count(Lot, { lotType: LotType.PartnerA })).toBe(recordsA.length);
  });

  it('imports the partnerB feed as lot_type 3, with no partnerA lot id', async () => {
    const summary = await run('partnerB', fixtureLines('partnerB'), { batchSize: 137 });
    expect(summary).toMatchObject({ lines: recordsB.length, created: recordsB.length, updated: 0, rejected: 0 });
    expect(await t.orm.em.fork().count(Lot, { lotType: LotType.PartnerB })).toBe(recordsB.length);
    const lot = await lotOf(LotType.PartnerB, String(recordsB[0].lot_id));
    expect(lot.details.partnerA_lot_id).toBeUndefined();
    const res = await t.client.get(`/lots/${lot.id}`);
    expect(res.body.data.attributes).toMatchObject({ lot_type: 3, lot_type_str: 'lot_type_partnerB' });
  });
});

describe('GET /lots over imported lots', () => {
  const recordsA = fixtureRecords('partnerA');

  it('filter[yard_number] finds exactly the partnerA lots of that yard', async () => {
    const yard = recordsA[0].details.yard_number;
    const expected = recordsA.filter((r) => r.details.yard_number === yard).map((r) => Number(r.lot_id));
    expect(expected.length).toBeGreaterThan(1);
    const found = await allMatching(`filter[lot_type]=partnerA&filter[yard_number]=${yard}`);
    expect(found.map((l) => l.attributes.details.partnerA_lot_id).sort()).toEqual(expected.sort());
    const count = await t.client.get(`/lots/count?filter[lot_type]=partnerA&filter[yard_number]=${yard}`);
    expect(count.body.data.id).toBe(String(expected.length));
  });

  it('filter[partnerA_status] finds the lots of those sale statuses', async () => {
    for (const statuses of [['approval'], ['pure', 'min']]) {
      const expected = recordsA.filter((r) => statuses.includes(r.details.sale_status)).length;
      expect(expected).toBeGreaterThan(0);
      const res = await t.client.get(`/lots/count?filter[lot_type]=partnerA&filter[partnerA_status]=${statuses.join(',')}`);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(String(expected));
    }
    const sample = await t.client.get('/lots?page[limit]=100&filter[lot_type]=partnerA&filter[partnerA_status]=min');
    expect(sample.body.data.length).toBeGreaterThan(0);
    expect(sample.body.data.every((l: any) => l.attributes.details.sale_status === 'min')).toBe(true);
  });

  it('filter[search] finds a lot by its source lot id', async () => {
    const record = recordsA[10];
    const res = await t.client.get(`/lots?filter[search]=${record.lot_id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].attributes).toMatchObject({ lot_type: 2, details: { partnerA_lot_id: Number(record.lot_id), vin_code: record.details.vin_code } });
  });

  it('filter[lot_type]=partnerB finds the partnerB lots only', async () => {
    const res = await t.client.get('/lots/count?filter[lot_type]=partnerB');
    expect(res.body.data.id).toBe(String(fixtureRecords('partnerB').length));
  });
});

describe('rejected lines', () => {
  it('reports bad JSON, a missing maker, a bad country, a bad price and an unknown sale_status by line, and imports the rest', async () => {
    const lines = [
      feedLine({ lot_id: 61000001 }),
      '{"lot_id": 61000002, "currency": ',
      feedLine({ lot_id: 61000003 }, { maker: undefined }),
      feedLine({ lot_id: 61000004 }, { country: 'XYZ' }),
      '',
      feedLine({ lot_id: 61000006, start_price: '12.345' }),
      feedLine({ lot_id: 61000007 }, { sale_status: 'sold' }),
      feedLine({ lot_id: 61000008, start_price: 99.5, start_time: 1797000000 }, { country: 'can' }),
    ];
    const summary = await run('partnerA', lines);
    expect(summary.rejections).toEqual([
      { line: 2, reason: expect.stringMatching(/^invalid JSON: /) },
      { line: 3, reason: 'details.maker is required' },
      { line: 4, reason: 'details.country: must be an ISO 3166-1 alpha-3 code' },
      { line: 6, reason: 'start_price: must be a non-negative price with at most two decimals (as a JSON number, at most 15 digits: send larger amounts as strings)' },
      { line: 7, reason: expect.stringMatching(/^details\.sale_status: .*"approval".*"pure".*"min"/) },
    ]);
    expect(summary).toMatchObject({ lines: 8, created: 2, updated: 0, unchanged: 0, rejected: 5 });
    const em = t.orm.em.fork();
    const imported = await em.find(Lot, { lotType: LotType.PartnerA, sourceLotId: { $gte: '61000000', $lt: '62000000' } }, { orderBy: { sourceLotId: 'asc' } });
    expect(imported.map((l) => String(l.sourceLotId))).toEqual(['61000001', '61000008']);
    expect(imported[1]).toMatchObject({ country: 'CAN', startTime: new Date(1797000000 * 1000) });
    expect(imported[1].startPrice.toFixed(2)).toBe('99.50');
  });

  it('rejects lines with bad ids, currencies, times and durations, each with its reason', async () => {
    const lines = [
      feedLine({ lot_id: 0 }),
      feedLine({ lot_id: 'A-1' }),
      feedLine({ lot_id: 62000003, currency: 'JPY' }),
      feedLine({ lot_id: 62000004, start_time: '10 December 2026' }),
      feedLine({ lot_id: 62000005, start_time: 1797000000.5 }),
      feedLine({ lot_id: 62000006, duration: undefined }),
      feedLine({ lot_id: 62000007, duration: undefined, end_time: '2026-12-10T09:00:00Z' }),
      feedLine({ lot_id: 62000008, duration: 3600, end_time: '2026-12-10T12:00:00Z' }),
      feedLine({ lot_id: 62000009, start_price: -5 }),
      feedLine({ lot_id: 62000010 }, { year: 1700, vin_code: 'OOPS' }),
      feedLine({ lot_id: 62000011 }, { yard_number: 'seven', lot_link: 'not a link' }),
      '[1, 2]',
      feedLine({ lot_id: 62000013, duration: undefined, end_time: '2026-12-10T12:00:00+01:00' }),
    ];
    const summary = await run('partnerA', lines);
    expect(summary.rejections.map((r) => [r.line, r.reason.split('; ').map((p) => p.split(/ is required|:/)[0])])).toEqual([
      [1, ['lot_id']],
      [2, ['lot_id']],
      [3, ['currency']],
      [4, ['start_time']],
      [5, ['start_time']],
      [6, ['duration']],
      [7, ['end_time']],
      [8, ['end_time']],
      [9, ['start_price']],
      [10, ['details.year', 'details.vin_code']],
      [11, ['details.yard_number', 'details.lot_link']],
      [12, ['line']],
    ]);
    expect(summary.rejections.find((r) => r.line === 6)?.reason).toBe('duration: duration or end_time is required');
    expect(summary.rejections.find((r) => r.line === 7)?.reason).toBe('end_time: must be after start_time');
    expect(summary.rejections.find((r) => r.line === 8)?.reason).toBe('end_time: must equal start_time plus duration when both are given');
    expect(summary).toMatchObject({ created: 1, rejected: 12 });
    const lot = await lotOf(LotType.PartnerA, '62000013');
    expect(lot.duration).toBe(3600);
    expect(lot.endTime).toEqual(new Date('2026-12-10T11:00:00Z'));
  });

  it('rejects an over-long line unread', async () => {
    const summary = await run('partnerA', [feedLine({ lot_id: 63000001 }, { notes: 'x'.repeat(70_000) })]);
    expect(summary).toMatchObject({ created: 0, rejected: 1, rejections: [{ line: 1, reason: 'line longer than 65536 characters' }] });
  });
});

describe('updates', () => {
  it('an updated line changes the stored lot', async () => {
    const first = await run('partnerA', [feedLine({ lot_id: 64000001 })]);
    expect(first).toMatchObject({ created: 1, updated: 0 });
    const before = await lotOf(LotType.PartnerA, '64000001');
    const second = await run('partnerA', [
      feedLine({ lot_id: 64000001, start_price: 3100, buy_now_price: '6000', duration: 7200 }, { sale_status: 'min', yard_number: 9, highlights: 'Keys Available' }),
    ]);
    expect(second).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const after = await lotOf(LotType.PartnerA, '64000001');
    expect(after.id).toBe(before.id);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    const res = await t.client.get(`/lots/${after.id}`);
    expect(res.body.data.attributes).toMatchObject({
      start_price: '3100.00',
      buy_now_price: '6000.00',
      buy_now_support: true,
      duration: '7200',
      end_time: '2026-12-10T12:00:00Z',
      details: { sale_status: 'min', yard_number: 9, highlights: 'Keys Available' },
    });
    const byYard = await t.client.get('/lots?filter[lot_type]=partnerA&filter[yard_number]=9&filter[partnerA_status]=min&filter[search]=64000001');
    expect(byYard.body.data.map((l: any) => l.id)).toEqual([after.id]);
  });

  it('a lot repeated within one feed takes its last line', async () => {
    const summary = await run('partnerA', [feedLine({ lot_id: 64000002, start_price: '100' }), feedLine({ lot_id: 64000003 }), feedLine({ lot_id: 64000002, start_price: '200' })]);
    expect(summary).toMatchObject({ created: 2, updated: 1, rejected: 0 });
    expect((await lotOf(LotType.PartnerA, '64000002')).startPrice.toFixed(2)).toBe('200.00');
  });

  it('the same source lot id in both sources makes two lots', async () => {
    await run('partnerA', [feedLine({ lot_id: 64000004 })]);
    const summary = await run('partnerB', [feedLine({ lot_id: 64000004 })]);
    expect(summary).toMatchObject({ created: 1, updated: 0 });
    expect(await t.orm.em.fork().count(Lot, { sourceLotId: '64000004' })).toBe(2);
  });

  it('an import from another platform moves the lot to it', async () => {
    const other = await createPlatform(t);
    const summary = await run('partnerA', [feedLine({ lot_id: 64000004 })], { platformId: other.publicKey() });
    expect(summary).toMatchObject({ created: 0, updated: 1 });
    expect(await lotOf(LotType.PartnerA, '64000004')).toMatchObject({ organizerId: other.publicKey(), publisherId: other.publicKey() });
  });
});

describe('the publishing account', () => {
  it('may be the master account', async () => {
    const summary = await run('partnerB', [feedLine({ lot_id: 65000001 })], { platformId: t.master.publicKey() });
    expect(summary).toMatchObject({ created: 1 });
    expect(await lotOf(LotType.PartnerB, '65000001')).toMatchObject({ organizerId: t.master.publicKey() });
  });

  it.each([
    ['an unknown account', () => 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7'],
    ['not an account id', () => 'nobody'],
  ])('must exist: %s is platform_not_found', async (_name, id) => {
    await expect(run('partnerA', [feedLine({ lot_id: 65000002 })], { platformId: id() })).rejects.toMatchObject({ code: 'platform_not_found', kind: 'invalid' });
    expect(await t.orm.em.fork().count(Lot, { sourceLotId: '65000002' })).toBe(0);
  });

  it('must be a platform, not a user', async () => {
    const user = await createAccount(t, platform);
    const err = await run('partnerA', [feedLine({ lot_id: 65000003 })], { platformId: user.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('platform_not_found');
  });

  it('an unknown source or batch size is invalid_parameter', async () => {
    await expect(run('partnerC' as ImportSource, [])).rejects.toMatchObject({ code: 'invalid_parameter' });
    await expect(run('partnerA', [], { batchSize: 0 })).rejects.toMatchObject({ code: 'invalid_parameter' });
  });
});
