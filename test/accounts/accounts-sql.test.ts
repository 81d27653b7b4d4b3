import { wrap } from '@mikro-orm/core';
import { Account } from '../../src/modules/accounts/accounts.entity';
import { accountsByIds } from '../../src/modules/accounts/accounts.sql';
import { createAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';

const world = appWithPlatform();

describe('accountsByIds (accounts read through the driver beside a page of lots)', () => {
  it('gives every property of each account as the ORM maps it, so that a column the entity gains is not left out', async () => {
    const user = await createAccount(world.t, world.platform, { attributes: { phone_number: '+380501234567', first_name: 'Olena', city: 'Lviv' } });
    const ids = [user.id, world.platform.publicKey()];
    const em = world.t.orm.em.fork();
    const read = await accountsByIds(em, ids);
    const mapped = await em.find(Account, { id: { $in: ids } });
    const byId = (rows: object[]) => Object.fromEntries(rows.map((r) => [(r as { id: string }).id, r]));
    expect(read).toHaveLength(2);
    expect(byId(read)).toEqual(byId(mapped.map((a) => wrap(a).toObject())));
  });
});
