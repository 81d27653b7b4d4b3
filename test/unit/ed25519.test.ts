import { randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { signEd25519, verifyEd25519 } from '../../src/auth/keys';

describe('ed25519 through Node crypto', () => {
  it('signs exactly as the SDK does, for many keys and messages, and verifies what either signed', () => {
    for (let i = 0; i < 50; i++) {
      const keypair = Keypair.random();
      const message = randomBytes(i);
      const ours = signEd25519(keypair, message);
      expect(ours.equals(keypair.sign(message))).toBe(true);
      expect(verifyEd25519(keypair.publicKey(), message, ours)).toBe(true);
      expect(keypair.verify(message, ours)).toBe(true);
    }
  });

  it('signs with the key it is given, not one it kept for another keypair', () => {
    const [a, b] = [Keypair.random(), Keypair.random()];
    const message = Buffer.from('the same text');
    signEd25519(a, message);
    const byB = signEd25519(b, message);
    expect(verifyEd25519(b.publicKey(), message, byB)).toBe(true);
    expect(verifyEd25519(a.publicKey(), message, byB)).toBe(false);
  });
});
