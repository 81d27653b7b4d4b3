import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Single-use tokens (verification, recovery); only their SHA-256 is stored. */
export const emailToken = () => randomBytes(24).toString('base64url');
export const phoneToken = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const recoveryToken = () => randomBytes(15).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest();

export const TOKEN_LIFETIME_MS = 24 * 3600 * 1000;
