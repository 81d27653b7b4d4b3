import type { Keypair } from '@stellar/stellar-sdk';
import type { TestApp } from '../../helpers/app';
import type { CreatedAccount } from '../../helpers/factories';
import { auction, BID_PLACED, bid, connect, NOTIFICATION_ADDED, probeBid, ready, until } from '../../live/support';
import { FILES } from '../../documents/documents.helpers';
import type { Role } from '../authorization.table';

type Who = Role | 'anon';

interface Secret {
  label: string;
  value: string;
  /** Who may be shown it (the account itself and staff of its platform). */
  visibleTo: Set<Who>;
}

interface People {
  platform: Keypair;
  otherPlatform: Keypair;
  accounts: Record<string, CreatedAccount>;
}

const STAFF_OF_P: Who[] = ['platform', 'admin'];
const STAFF_OF_Q: Who[] = ['otherPlatform', 'otherAdmin'];

/**
 * Secrets of the fixture and every answer scanned for them: users' emails and phones (admins'
 * and brokers' contacts are public through GET /admins and /brokers), every password hash and
 * the password itself, a private document's id, and a bidder's and depositor's account id on a
 * lot whose managers alone may link them.
 */
export class Leaks {
  scanned = 0;
  found: string[] = [];
  /** Secrets met where they may be shown: the scan would have seen them anywhere else. */
  seen = new Set<string>();

  private constructor(
    private readonly secrets: Secret[],
    private readonly people: People,
  ) {}

  get secretCount(): number {
    return this.secrets.length;
  }

  static async of(t: TestApp, people: People): Promise<Leaks> {
    const { accounts } = people;
    const secrets: Secret[] = [];
    const users: [Who, CreatedAccount, Who[]][] = [
      ['user', accounts.user, STAFF_OF_P],
      ['paused', accounts.paused, STAFF_OF_P],
      ['anon', accounts.stopped, STAFF_OF_P],
      ['anon', accounts.target, STAFF_OF_P],
      ['otherUser', accounts.otherUser, STAFF_OF_Q],
    ];
    for (const [self, account, staff] of users) {
      const visibleTo = new Set<Who>([self, ...staff].filter((w) => w !== 'anon'));
      const phone = account.body.data.attributes.phone_number as string | undefined;
      secrets.push({ label: `email of ${account.id}`, value: account.email, visibleTo });
      if (phone) secrets.push({ label: `phone of ${account.id}`, value: phone, visibleTo });
    }
    const hashes = await t.orm.em.getConnection().execute<{ password_hash: string }[]>('select password_hash from credentials');
    for (const { password_hash } of hashes) secrets.push({ label: 'a password hash', value: password_hash, visibleTo: new Set() });
    secrets.push({ label: 'a password', value: accounts.user.password, visibleTo: new Set() });

    const upload = await t.client.as(accounts.user.keypair).request('POST', '/documents', {
      raw: form({ document_type: 'private', owners: [accounts.user.id] }, FILES.pdf),
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    });
    if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${upload.text}`);
    secrets.push({ label: 'a private document id', value: upload.body.data.id, visibleTo: new Set<Who>(['user']) });
    return new Leaks(secrets, people);
  }

  scan(who: Who, where: string, text: string): void {
    this.scanned++;
    for (const s of this.secrets) {
      if (!text.includes(s.value)) continue;
      if (s.visibleTo.has(who)) this.seen.add(s.label);
      else this.found.push(`${where}: ${s.label}`);
    }
  }

  /**
   * A lot of P on which the user bids with a deposit: the bidder's and depositor's id may be
   * shown to the lot's managers and the user only, over REST, GraphQL queries and a subscription.
   */
  async probeTrading(t: TestApp): Promise<void> {
    const { accounts, platform, otherPlatform } = this.people;
    const user = accounts.user;
    const lotId = await auction(t, accounts.admin.keypair, [user.id, accounts.target.id]);
    await bid(t, user.keypair, lotId, { amount: '1000' });
    const bidder: Secret = { label: `the bidder on lot ${lotId}`, value: user.id, visibleTo: new Set<Who>(['user', 'platform', 'admin']) };
    this.secrets.push(bidder);
    const onlookers: [Who, Keypair | null][] = [
      ['anon', null],
      ['otherUser', accounts.otherUser.keypair],
      ['otherAdmin', accounts.otherAdmin.keypair],
      ['otherPlatform', otherPlatform],
      ['broker', accounts.broker.keypair],
    ];
    const lotQuery = `query($id: ID!) { lot(id: $id) { id highestBid winnerId bids { id amount bidderId } participants { id accountId } deposits { id } } }`;
    for (const [who, keypair] of onlookers) {
      const client = keypair ? t.client.as(keypair) : t.client;
      this.scan(who, `GET /lots/${lotId} as ${who}`, (await client.get(`/lots/${lotId}?include=participants,deposits,callbacks,stars,winner_details,organizer`)).text);
      this.scan(who, `GET /lots as ${who}`, (await client.get('/lots?include=participants,deposits')).text);
      this.scan(who, `query lot as ${who}`, (await client.graphql(lotQuery, { id: lotId })).text);
    }
    this.scan('platform', `query lot as platform`, (await t.client.as(platform).graphql(lotQuery, { id: lotId })).text);
    this.scan('user', `GET /documents as user`, (await t.client.as(user.keypair).get(`/documents?in=${this.secrets.find((s) => s.label === 'a private document id')?.value}`)).text);

    const socket = connect(t, accounts.target.keypair);
    const anonymous = connect(t);
    try {
      const feed = socket.subscribe(BID_PLACED, { lotId });
      await ready(feed, () => t.app.services.live.publishBid(probeBid(lotId)));
      await bid(t, user.keypair, lotId, { amount: '1050' });
      await until(() => feed.events.length > 0, 5000, () => 'the bid event');
      for (const event of feed.events) this.scan('anon', `bidPlaced to another participant`, JSON.stringify(event));
      const notifications = anonymous.subscribe(NOTIFICATION_ADDED);
      await until(() => notifications.errors.length > 0, 5000, () => 'the anonymous notificationAdded to be refused');
      if (!JSON.stringify(notifications.errors).includes('unauthenticated')) this.found.push(`anonymous notificationAdded: ${JSON.stringify(notifications.errors)}`);
    } finally {
      await socket.dispose();
      await anonymous.dispose();
    }
  }
}

const BOUNDARY = 'audit-boundary';

function form(attributes: object, file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file[attributes]"\r\n\r\n${JSON.stringify(attributes)}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
