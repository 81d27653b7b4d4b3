import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Keypair } from '@stellar/stellar-sdk';
import { SMTPServer } from 'smtp-server';
import { ConfigError, loadConfig } from '../../src/config';
import { logger } from '../../src/core/logger';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import { SmtpOutbox, type Mailer } from '../../src/modules/outbox/outbox.smtp';
import type { OutgoingMessage } from '../../src/modules/outbox/outbox.port';
import { TableOutbox } from '../../src/modules/outbox/outbox.table';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform, lastToken } from '../helpers/factories';
import { signIn } from '../credentials/support';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP double that keeps every message it accepts. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.server.address() as AddressInfo).port, received };
}

async function arrived(received: Received[], to: string): Promise<Received> {
  for (let i = 0; i < 50; i++) {
    const found = received.find((m) => m.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no email to ${to} arrived`);
}

const tokenIn = (m: Received) => /^Token: (\S+)\r?$/m.exec(m.raw)?.[1];

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestApp;
let platform: Keypair;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'auction@example.test' });
  platform = await createPlatform(t);
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
});

describe('with SMTP_URL', () => {
  it('sends the verification email through SMTP, not to the outbox table, and SMS still to the table', async () => {
    const user = await createAccount(t, platform, { attributes: { phone_number: '+995555000111' } });
    const mail = await arrived(smtp.received, user.email);
    expect(mail.from).toBe('auction@example.test');
    expect(mail.raw).toMatch(/^Subject: Confirm your email address\r?$/m);
    expect(tokenIn(mail)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await t.orm.em.fork().count(OutboxMessage, { recipient: user.email })).toBe(0);
    expect(await lastToken(t.orm, '+995555000111')).toMatch(/^\d{6}$/);
    expect(smtp.received.some((m) => m.to.includes('+995555000111'))).toBe(false);

    const verified = await t.client.patch('/accounts/verification/email', { data: { type: 'accounts', id: user.id, attributes: { token: tokenIn(mail) } } });
    expect(verified.status).toBe(200);
  });

  it('sends the recovery token through SMTP', async () => {
    const user = await createAccount(t, platform);
    const verification = tokenIn(await arrived(smtp.received, user.email));
    await t.client.patch('/accounts/verification/email', { data: { type: 'accounts', id: user.id, attributes: { token: verification } } });
    const before = smtp.received.length;
    expect((await t.client.put('/recovery_requests', { data: { id: user.id } })).status).toBe(204);
    const mail = await arrived(smtp.received.slice(before), user.email);
    expect(mail.raw).toMatch(/^Subject: Reset your password\r?$/m);
    const token = tokenIn(mail) as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(await t.orm.em.fork().count(OutboxMessage, { recipient: user.email })).toBe(0);
    const approved = await t.client.patch('/recovery_requests', { data: { id: user.id, attributes: { token, new_password: 'mailed password' } } });
    expect(approved.status).toBe(204);
    expect((await signIn(t, { account_id: user.id, password: 'mailed password' })).status).toBe(201);
  });

  it('still creates the account when the mail server is down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const owner = await createPlatform(down);
      const user = await createAccount(down, owner);
      expect(user.body.data.id).toBe(user.id);
      expect(await down.orm.em.fork().count(OutboxMessage, { recipient: user.email })).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('SmtpOutbox', () => {
  const message: OutgoingMessage = { channel: 'email', recipient: 'a@example.com', accountId: null, platformId: null, subject: 'S', body: 'Token: x\n' };

  function recording(): { mailer: Mailer; sent: string[] } {
    const sent: string[] = [];
    return { sent, mailer: { sendMail: async (mail) => void sent.push(mail.to) } };
  }

  it('sends a message given inside a transaction only after the commit', async () => {
    const { mailer, sent } = recording();
    const outbox = new SmtpOutbox(mailer, 'from@example.test', new TableOutbox(logger), logger);
    await t.orm.em.fork().transactional(async (em) => {
      await outbox.send(em, message);
      await em.transactional(async (inner) => outbox.send(inner, { ...message, recipient: 'b@example.com' }));
      expect(sent).toEqual([]);
    });
    expect(sent).toEqual(['a@example.com', 'b@example.com']);
  });

  it('never sends a message whose transaction rolls back', async () => {
    const { mailer, sent } = recording();
    const outbox = new SmtpOutbox(mailer, 'from@example.test', new TableOutbox(logger), logger);
    await expect(
      t.orm.em.fork().transactional(async (em) => {
        await outbox.send(em, message);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.orm.em.fork().transactional(async () => undefined);
    expect(sent).toEqual([]);
  });

  it('sends at once outside a transaction', async () => {
    const { mailer, sent } = recording();
    await new SmtpOutbox(mailer, 'from@example.test', new TableOutbox(logger), logger).send(t.orm.em.fork(), message);
    expect(sent).toEqual(['a@example.com']);
  });
});

describe('SMTP configuration', () => {
  it('takes an smtp:// or smtps:// URL and a sender that defaults to no-reply@localhost', () => {
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
    expect(loadConfig({}).SMTP_FROM).toBe('no-reply@localhost');
    expect(loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example:465', SMTP_FROM: 'a@b.c' })).toMatchObject({
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      SMTP_FROM: 'a@b.c',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMTP_URL: 'not a url' })).toThrow(/SMTP_URL/);
  });
});
