import { createHash } from 'node:crypto';
import type { Keypair } from '@stellar/stellar-sdk';
import canonicalize from 'canonicalize';
import { CreateLotRequest } from '../../src/modules/requests/requests.entity';
import type { TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { appWith } from '../helpers/world';
import { ENG_LOT } from '../helpers/lots';

/** Files a create_lot request through POST /lots signed by a user; returns the stored row. */
export async function fileRequest(t: TestApp, user: Keypair, attributes: Record<string, unknown> = ENG_LOT): Promise<CreateLotRequest> {
  const res = await t.client.as(user).post('/lots', { data: { type: 'lots', attributes } });
  if (res.status !== 204) throw new Error(`lot request failed: ${res.status} ${res.text}`);
  const [request] = await t.orm.em.fork().find(CreateLotRequest, { requestor: user.publicKey() }, { orderBy: { id: 'desc' }, limit: 1 });
  if (!request) throw new Error('no request was filed');
  return request;
}

/**
 * What a client does to recompute the review hash from GET /requests/{id}:
 * convert the representation back to the stored body and hash its RFC 8785 form.
 */
export function clientHash(attributes: Record<string, any>): string {
  const optional = (key: string) => (attributes[key] === null ? {} : { [key]: attributes[key] });
  const body = {
    type: String(attributes.lot_type_str).replace(/^lot_type_/, ''),
    currency: attributes.currency,
    start_price: attributes.start_price,
    buy_now_price: attributes.buy_now_price,
    deposit: attributes.deposit,
    min_step: attributes.min_step,
    ...optional('max_step'),
    ...optional('b2b_vehicle_price'),
    ...optional('b2c_vehicle_price'),
    ...optional('b2c_total_price'),
    ...(attributes.start_time === null ? {} : { start_time: Date.parse(attributes.start_time) / 1000 }),
    ...optional('duration'),
    details: attributes.details,
  };
  return createHash('sha256').update(canonicalize(body) as string, 'utf8').digest('hex');
}

/** A PATCH /requests/{id} document. */
export const reviewDoc = (id: string, attributes: Record<string, unknown>) => ({ data: { type: 'reviewable_requests', id, attributes } });

/** An app with a platform, its admin and two of its users (keypairs); a file's own `beforeAll` runs after it. */
export function appWithRequestors() {
  return appWith(async (t) => {
    const platform = await createPlatform(t);
    const admin = (await createAccount(t, platform, { type: 'admin' })).keypair;
    const user = (await createAccount(t, platform)).keypair;
    const otherUser = (await createAccount(t, platform)).keypair;
    return { platform, admin, user, otherUser };
  });
}
