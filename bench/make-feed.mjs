// Deterministic sample feeds of external-source lots (JSON Lines, the format of
// src/modules/lots/lots.import.ts), and the vehicle generator the lots benchmark seeds with.
//
//   node bench/make-feed.mjs --source partnerA --count 1200 [--seed 1] > test/fixtures/partnerA.jsonl
//
// The same arguments always give the same bytes: times are fixed, randomness is seeded.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const data = (name) => JSON.parse(readFileSync(new URL(`../src/modules/reference/data/${name}.json`, import.meta.url), 'utf8'));
const MAKERS = data('makers');
const COUNTRIES = data('countries').filter((c) => c.cities && c.cities.length);
const FUELS = ['gas', 'gas', 'gas', 'diesel', 'diesel', 'hybrid', 'electric', 'plugin_hybrid', 'lpg', 'flexible'];
const TRANSMISSIONS = ['AUTOMATIC', 'AUTOMATIC', 'AUTOMATIC', 'MANUAL_GEARBOX', 'CVT', 'DUAL_CLUTCH'];
const COLORS = ['black', 'white', 'silver', 'gray', 'blue', 'red', 'green', 'brown'];
const BODIES = ['sedan', 'suv', 'hatchback', 'pickup', 'coupe', 'wagon', 'van'];
const DAMAGES = ['front end', 'rear end', 'side', 'hail', 'minor dents', 'mechanical', 'normal wear'];
const HIGHLIGHTS = ['Run and Drive', 'Enhanced Vehicles', 'Keys Available', 'Engine Starts', 'Clean Title', 'Donated Vehicle'];
const STATUSES = ['approval', 'pure', 'min'];
const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
/** Sources and where their lots are. */
const SOURCES = {
  partnerA: { host: 'https://lots.partner-a.example', firstId: 40_000_000, countries: ['USA', 'USA', 'USA', 'CAN'] },
  partnerB: { host: 'https://auctions.partner-b.example', firstId: 700_000_000, countries: ['USA', 'KOR', 'JPN', 'DEU', 'ARE'] },
};
/** Feed times count from here (2026-12-01T00:00:00Z). */
export const FEED_EPOCH = Date.UTC(2026, 11, 1) / 1000;

/** A small seeded PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = (list) => list[Math.floor(next() * list.length)];
  return next;
}

/** A VIN unique to n (17 characters of the VIN alphabet). */
export function vinOf(n, r) {
  let prefix = '';
  for (let i = 0; i < 9; i++) prefix += r.pick(VIN_CHARS);
  let tail = '';
  let v = n;
  for (let i = 0; i < 8; i++) {
    tail = VIN_CHARS[v % VIN_CHARS.length] + tail;
    v = Math.floor(v / VIN_CHARS.length);
  }
  return prefix + tail;
}

/** The vehicle part of a lot's details; `country` may be forced. */
export function vehicle(r, n, country) {
  const maker = r.pick(MAKERS);
  const cls = r.pick(maker.classes);
  const where = country ? COUNTRIES.find((c) => c.code === country) : r.pick(COUNTRIES);
  const year = r.int(2005, 2025);
  return {
    country: where.code,
    city: r.pick(where.cities),
    year,
    maker: maker.name,
    model: r.pick(cls.models),
    color: r.pick(COLORS),
    vin_code: vinOf(n, r),
    fuel_type: r.pick(FUELS),
    transmission: r.pick(TRANSMISSIONS),
    wheel: r() < 0.9 ? 'left' : 'right',
    engine_volume: r.int(10, 50) / 10,
    odometer_value: r.int(5, 300) * 1000,
    registered: r() < 0.5,
    body_style: r.pick(BODIES),
  };
}

/** One feed line of a source: a mix of the accepted spellings (numbers and strings, epoch and RFC 3339). */
export function feedLine(source, i, r) {
  const s = SOURCES[source];
  const id = s.firstId + i * 7 + r.int(0, 6);
  const v = vehicle(r, id, r.pick(s.countries));
  const yard = r.int(1, 60);
  const start = FEED_EPOCH + r.int(0, 30) * 86400 + r.int(8, 18) * 3600;
  const duration = r.pick([3600, 7200, 86400, 3 * 86400]);
  const price = r.int(2, 400) * 50 + (r() < 0.2 ? r.int(1, 99) / 100 : 0);
  const images = (kind, n) => Array.from({ length: n }, (_, k) => `${s.host}/img/${kind}/${id}_${k + 1}.jpg`);
  const details = {
    ...v,
    primary_damage: r.pick(DAMAGES),
    yard_number: yard,
    sale_status: r.pick(STATUSES),
    highlights: r.pick(HIGHLIGHTS),
    lot_link: `${s.host}/lot/${id}`,
    sale_link: `${s.host}/sale/${yard}/${new Date(start * 1000).toISOString().slice(0, 10)}`,
    thumbnail_img_links: images('thumb', 3),
    hd_img_links: images('hd', 2),
  };
  return {
    lot_id: i % 5 === 0 ? String(id) : id,
    currency: 'USD',
    start_price: i % 2 === 0 ? price.toFixed(2) : price,
    ...(r() < 0.3 ? { buy_now_price: (price * 2).toFixed(2) } : {}),
    start_time: i % 3 === 0 ? new Date(start * 1000).toISOString().replace('.000Z', 'Z') : start,
    ...(i % 4 === 0 ? { end_time: start + duration } : { duration }),
    details,
  };
}

function main() {
  const { values } = parseArgs({ options: { source: { type: 'string' }, count: { type: 'string', default: '1200' }, seed: { type: 'string', default: '1' } } });
  if (!SOURCES[values.source]) {
    console.error(`usage: node bench/make-feed.mjs --source ${Object.keys(SOURCES).join('|')} [--count N] [--seed N]`);
    process.exit(2);
  }
  const r = rng(Number(values.seed));
  const count = Number(values.count);
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify(feedLine(values.source, i, r)));
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
