import { Account, AccountSigner, BlacklistEntry } from '../modules/accounts/accounts.entity';
import { Credential } from '../modules/credentials/credentials.entity';
import { OutboxMessage } from '../modules/outbox/outbox.entity';
import { VerificationToken } from '../modules/verification/verification.entity';

export const ENTITIES = [Account, AccountSigner, BlacklistEntry, Credential, OutboxMessage, VerificationToken];
