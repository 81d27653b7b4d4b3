import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const FIXTURES = path.resolve(__dirname, '../fixtures');
export const fixturePath = (source: 'partnerA' | 'partnerB') => path.join(FIXTURES, `${source}.jsonl`);

/** The fixture's lines as the CLI reads them: streamed through readline. */
export function fixtureLines(source: 'partnerA' | 'partnerB') {
  return createInterface({ input: createReadStream(fixturePath(source)), crlfDelay: Infinity });
}

/** The fixture parsed, for computing what the filters should find. */
export function fixtureRecords(source: 'partnerA' | 'partnerB'): any[] {
  return readFileSync(fixturePath(source), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** A valid feed line; `over` replaces top-level members, `details` members of details (undefined removes). */
export function feedLine(over: Record<string, unknown> = {}, details: Record<string, unknown> = {}): string {
  const base = {
    lot_id: 55500001,
    currency: 'USD',
    start_price: '2500.00',
    start_time: '2026-12-10T10:00:00Z',
    duration: 86400,
    details: {
      country: 'USA',
      year: 2019,
      maker: 'Toyota',
      model: 'Camry',
      vin_code: '4T1B11HK5KU123456',
      yard_number: 7,
      sale_status: 'pure',
      highlights: 'Run and Drive',
      lot_link: 'https://lots.partner-a.example/lot/55500001',
      sale_link: 'https://lots.partner-a.example/sale/7/2026-12-10',
      thumbnail_img_links: ['https://lots.partner-a.example/img/thumb/55500001_1.jpg'],
    },
  };
  const merged: Record<string, unknown> = { ...base, ...over, details: { ...base.details, ...details } };
  return JSON.stringify(merged);
}
