import { StoredDocument } from '../modules/documents/documents.entity';
import { Account, AccountSigner, BlacklistEntry } from '../modules/accounts/accounts.entity';
import { Bid } from '../modules/bids/bids.entity';
import { Credential, SignInFailure } from '../modules/credentials/credentials.entity';
import { CurrencyRate } from '../modules/currency/currency.entity';
import { Lot } from '../modules/lots/lots.entity';
import { Message } from '../modules/messages/messages.entity';
import { Notification } from '../modules/notifications/notifications.entity';
import { OutboxMessage } from '../modules/outbox/outbox.entity';
import { RecoveryRequest } from '../modules/recovery/recovery.entity';
import { CreateLotRequest } from '../modules/requests/requests.entity';
import { Deposit, Participant, WinnerDetails } from '../modules/trading/trading.entity';
import { VerificationToken } from '../modules/verification/verification.entity';
import { Callback, Star } from '../modules/watchlist/watchlist.entity';
import { LedgerAccount, LedgerBalance, LedgerClose, LedgerData, LedgerTransaction } from '../modules/ledger/ledger.entity';

export const ENTITIES = [
  Account,
  AccountSigner,
  BlacklistEntry,
  Credential,
  SignInFailure,
  RecoveryRequest,
  OutboxMessage,
  VerificationToken,
  CurrencyRate,
  Lot,
  CreateLotRequest,
  Participant,
  Deposit,
  WinnerDetails,
  Star,
  Callback,
  Bid,
  Notification,
  Message,
  StoredDocument,
  LedgerAccount,
  LedgerBalance,
  LedgerData,
  LedgerClose,
  LedgerTransaction,
];
