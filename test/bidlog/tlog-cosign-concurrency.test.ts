import { Keypair } from '@stellar/stellar-sdk';
import { cosignatureLine, witnessVkey } from '../../src/modules/bidlog/tlog.cosign';
import { parseNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

// Co-signatures arriving at once (docs/bid-log.md, "Witnesses"): one witness posting the same line
// to two instances sharing the database, and two witnesses posting to one instance. One row per
// witness and checkpoint, every answer 200 with the poster's own co-signature.
const w1 = Keypair.random();
const w2 = Keypair.random();
const W1 = 'w1.example.org';
const W2 = 'w2.example.org';
const env = { LOG_WITNESSES: `${witnessVkey(W1, w1)}, ${witnessVkey(W2, w2)}` };
let db: TestDatabase;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await startTestApp(env, db);
  b = await startTestApp(env, db);
});

afterAll(async () => {
  await a.close();
  await b.close();
  await db.drop();
});

const cosign = (t: TestApp, note: string) => t.client.post('/log/cosign', { data: { type: 'cosignatures', attributes: { note } } });
const witnessesIn = (res: { body: { data: { attributes: { cosignatures: { witness: string }[] } } } }) => res.body.data.attributes.cosignatures.map((c) => c.witness);

async function latest(): Promise<{ size: string; body: string }> {
  const res = await a.client.get('/log/checkpoint');
  expect(res.status).toBe(200);
  return { size: res.body.data.attributes.size, body: (parseNote(res.body.data.attributes.note) as ParsedNote).body };
}

const rows = async (size: string) => a.orm.em.fork().getConnection().execute('select witness from tlog_cosignatures where size = ? order by witness', [size]);

describe('co-signatures posted at once', () => {
  it('keeps one row when a witness posts the same co-signature to two instances together, answering each 200', async () => {
    const { size, body } = await latest();
    const note = `${body}\n${cosignatureLine(W1, w1, body, Math.floor(Date.now() / 1000))}`;
    const answers = await Promise.all([a, b, a, b, a, b].map((t) => cosign(t, note)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const r of answers) expect(witnessesIn(r)).toEqual([W1]);
    expect(await rows(size)).toEqual([{ witness: W1 }]);
  });

  it('keeps both witnesses when they post to one instance together, each answer holding its own', async () => {
    const { size, body } = await latest();
    const at = Math.floor(Date.now() / 1000) + 1;
    const posts: [string, Promise<Awaited<ReturnType<typeof cosign>>>][] = [W1, W2, W1, W2].map((name) => [
      name,
      cosign(a, `${body}\n${cosignatureLine(name, name === W1 ? w1 : w2, body, at)}`),
    ]);
    for (const [name, answer] of posts) {
      const res = await answer;
      expect([name, res.status]).toEqual([name, 200]);
      expect(witnessesIn(res)).toContain(name);
    }
    expect(await rows(size)).toEqual([{ witness: W1 }, { witness: W2 }]);
    const served = await b.client.get('/log/checkpoint?cosignatures=2');
    expect([served.status, served.body.data.attributes.size, witnessesIn(served)]).toEqual([200, size, [W1, W2]]);
  });

  it('answers 200 to notes carrying both witnesses in opposite orders, posted together again and again', async () => {
    const { size, body } = await latest();
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const at = Math.floor(Date.now() / 1000) + 2 + round;
      const [one, two] = [cosignatureLine(W1, w1, body, at), cosignatureLine(W2, w2, body, at)];
      const answers = await Promise.all([cosign(a, `${body}\n${one}${two}`), cosign(b, `${body}\n${two}${one}`)]);
      statuses.push(...answers.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(20).fill(200));
    expect(await rows(size)).toEqual([{ witness: W1 }, { witness: W2 }]);
  });
});
