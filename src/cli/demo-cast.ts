import { randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import type { Api } from './api';
import { expectStatus } from './resources';

export interface Member {
  name: string;
  label: string;
  keypair: Keypair;
}

/** The demo's accounts: its platform, the platform's admin and two bidders. */
export interface Cast {
  platform: Member;
  admin: Member;
  alice: Member;
  bob: Member;
}

const EMAIL_DOMAIN = 'demo-motors.example';

/** Who each of the demo's accounts is: the name of its key file, and its name in the report. */
export const CAST_LABELS: Readonly<Record<keyof Cast, string>> = { platform: 'Demo Motors', admin: 'Nino Beridze', alice: 'Alice Morgan', bob: 'Bob Kovalenko' };

/** The demo's accounts with new keys, made nowhere yet. */
export function newCast(): Cast {
  const member = (name: keyof Cast): Member => ({ name, label: CAST_LABELS[name], keypair: Keypair.random() });
  return { platform: member('platform'), admin: member('admin'), alice: member('alice'), bob: member('bob') };
}

/**
 * Creates the platform with the master seed (POST /platforms), its admin signed by the platform,
 * and two users who sign their own creation. Passwords are random and kept nowhere: the key
 * files are how the demo's accounts act.
 */
export async function createCast(api: Api, master: Keypair, cast: Cast): Promise<void> {
  const platformId = cast.platform.keypair.publicKey();
  const platform = await api.json('POST', '/platforms', {
    data: {
      type: 'accounts',
      id: platformId,
      attributes: { seed: master.secret(), first_name: 'Demo', last_name: 'Motors', company: 'Demo Motors', email: `office@${EMAIL_DOMAIN}`, country: 'GEO', city: 'Tbilisi' },
    },
  });
  expectStatus(platform, 201, 'creating the platform');

  const create = async (who: Member, accountType: 'admin' | 'user', signer: Member) => {
    const [firstName, lastName] = who.label.split(' ');
    const res = await api.as(signer.keypair).json('POST', '/accounts', {
      data: {
        type: 'accounts',
        id: who.keypair.publicKey(),
        attributes: {
          account_type: accountType,
          platform_id: platformId,
          first_name: firstName,
          last_name: lastName,
          email: `${who.name}@${EMAIL_DOMAIN}`,
          password: randomBytes(18).toString('base64url'),
          currency: 'USD',
        },
      },
    });
    expectStatus(res, 201, `creating ${who.name}`);
  };
  await create(cast.admin, 'admin', cast.platform);
  await create(cast.alice, 'user', cast.alice);
  await create(cast.bob, 'user', cast.bob);
}
