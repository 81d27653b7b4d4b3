import { INFRASTRUCTURE } from './router';

/**
 * What each area of the reference holds: its OpenAPI tag's description. An area is a module of
 * src/modules (its name is the folder's), the live page, or the service's own infrastructure.
 */
export const AREA_DESCRIPTIONS: Readonly<Record<string, string>> = {
  system: 'The service itself as a caller sees it: who it is, who the caller is',
  reference: 'Reference lists: vehicle makers and models, countries, fuels, wheels, transmissions',
  verification: "Verifying an account's email and phone",
  accounts: 'Accounts (users, brokers, admins, platforms) and their contacts',
  blacklist: "Pausing and stopping accounts of the caller's platform",
  credentials: 'Passwords and JWTs: signing in without a key',
  recovery: 'Recovering a forgotten password',
  platforms: 'Platforms and the signers of the master account',
  rules: "A platform's auction rules, and the fees they charge",
  currency: 'Currency rates and conversions',
  lots: 'Lots: creating, searching, reading, changing the reserve price',
  bids: 'Bidding on a lot, with an optional maximum for automatic raises',
  bidlog: "A lot's verifiable, hash-chained bid log (docs/bid-log.md)",
  'buying-power': 'How much an account may still bid on a platform',
  requests: 'Create-lot requests a platform reviews',
  watchlist: 'Starred lots and callback requests',
  searches: 'Saved lot searches, alerted when a new lot matches (docs/saved-searches.md)',
  trading: 'Taking part in a lot: participation, deposits, buy now, winners, closing',
  offers: "Second-chance offers of a lot whose winner's deal fell through",
  documents: 'Uploaded documents (invoices, photos) and their signed links',
  notifications: 'Notifications of an account, and events platforms report',
  ledger: 'The ledger: transactions and ledger accounts',
  messages: 'Messages about a lot between its organizer and bidders',
  live: 'A page following one lot as it happens (GraphQL subscriptions carry the same events)',
  [INFRASTRUCTURE]: 'The service’s own routes: health, readiness, metrics, JWT keys, GraphQL and this reference',
};
