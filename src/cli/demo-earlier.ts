import { existsSync } from 'node:fs';
import { Keypair } from '@stellar/stellar-sdk';
import Decimal from 'decimal.js';
import type { Api } from './api';
import { VEHICLES } from './catalogue';
import { CAST_LABELS, type Cast, type Member } from './demo-cast';
import type { DemoLot } from './demo-lots';
import type { PlacedBid } from './demo-trading';
import { keyFileIn, readKeyFile } from './keys';
import { expectStatus, many, one, type Resource } from './resources';

/** What a run of the demo made, or found made: what its report shows. */
export interface Marketplace {
  cast: Cast;
  lots: DemoLot[];
  /** Every lot's bids, auction by auction in the order of the catalogue, each lot's lowest first. */
  bids: PlacedBid[];
  rulesVersion: number;
  /** The lot closed sold, whose bid log is signed. */
  closed: DemoLot;
}

const PLATFORM_TYPE = 2;

/** The demo's accounts from their key files, when all four are there and hold keys. */
function castOf(dir: string): Cast | null {
  const cast = {} as Cast;
  for (const [name, label] of Object.entries(CAST_LABELS) as [keyof Cast, string][]) {
    const file = keyFileIn(dir, name);
    if (!existsSync(file)) return null;
    try {
      cast[name] = { name, label, keypair: readKeyFile(file) };
    } catch {
      return null;
    }
  }
  return cast;
}

/** The platform of the key files in `dir`, when the service has it (a run that stopped halfway made it), else null. */
export async function platformOfKeys(api: Api, dir: string): Promise<string | null> {
  const file = keyFileIn(dir, 'platform');
  if (!existsSync(file)) return null;
  let platform: Keypair;
  try {
    platform = readKeyFile(file);
  } catch {
    return null;
  }
  const account = await api.as(platform).json('GET', `/accounts/${platform.publicKey()}`);
  return account.status === 200 && one(account).attributes.account_type === PLATFORM_TYPE ? platform.publicKey() : null;
}

/** The names of the demo's key files that are in `dir`: what a new run replaces. */
export const keyFilesIn = (dir: string): string[] => Object.keys(CAST_LABELS).filter((name) => existsSync(keyFileIn(dir, name)));

/**
 * The marketplace an earlier run made on this service, read back through the REST interface: its
 * key files are in `dir`, the service has their platform, one lot of each vehicle of the catalogue
 * published by it, and the lot it closed sold. Null when any of it is missing (another service, a
 * database started afresh, a run that stopped halfway), and a new marketplace is made.
 */
export async function earlierMarketplace(api: Api, dir: string): Promise<Marketplace | null> {
  const cast = castOf(dir);
  if (!cast) return null;
  const platformId = cast.platform.keypair.publicKey();
  const account = await api.as(cast.platform.keypair).json('GET', `/accounts/${platformId}`);
  if (account.status !== 200 || one(account).attributes.account_type !== PLATFORM_TYPE) return null;

  const staff = api.as(cast.admin.keypair);
  // Refused when the run stopped before it made the admin: a marketplace not finished. The demo's
  // lots are its platform's first, whatever was put up on it since (an import of a thousand).
  const listed = await staff.json('GET', `/lots?filter[publisher]=${platformId}&sort=created_at&include=bids&page[limit]=100`);
  if (listed.status !== 200) return null;
  const published = many(listed).sort((a, b) => Number(a.id) - Number(b.id));
  const lots: DemoLot[] = [];
  for (const vehicle of VEHICLES) {
    const lot = published.find((l) => {
      const details = l.attributes.details as { maker?: string; model?: string } | null;
      return details?.maker === vehicle.maker && details.model === vehicle.model && !lots.some((taken) => taken.id === l.id);
    });
    if (!lot) return null;
    lots.push({ id: lot.id, vehicle });
  }
  const closed = lots.find((lot) => published.find((l) => l.id === lot.id)?.attributes.lot_state_str === 'lot_state_sold');
  if (!closed) return null;

  const members = new Map(Object.values(cast).map((m: Member) => [m.keypair.publicKey(), m]));
  const bidderOf = (accountId: string): Member => members.get(accountId) ?? { name: 'another', label: 'another account', keypair: Keypair.fromPublicKey(accountId) };
  const included = ((listed.body as { included?: Resource[] }).included ?? []).filter((r) => r.type === 'bids');
  const bids = lots.flatMap((lot) =>
    included
      .filter((b) => String(b.attributes.lot_id) === lot.id)
      .sort((a, b) => new Decimal(a.attributes.amount as string).cmp(b.attributes.amount as string))
      .map((b): PlacedBid => ({ lot, bidder: bidderOf(b.attributes.account_id as string), amount: b.attributes.amount as string })),
  );
  if (!bids.length) return null;
  const rules = expectStatus(await staff.json('GET', `/platforms/${platformId}/rules`), 200, 'reading the platform rules');
  return { cast, lots, bids, rulesVersion: one(rules).attributes.version as number, closed };
}
