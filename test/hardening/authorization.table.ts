/**
 * The authorization audit's table: one row per REST operation (keyed `METHOD /path` as the router
 * declares it) and one per GraphQL query and mutation. A route or field without a row fails the
 * audit, so a new operation cannot go unaudited.
 *
 * Identity columns that follow from docs/signing.md for every operation (unsigned, tampered,
 * replayed, expired or forged tokens, a stopped account) are derived in the test from `auth`;
 * the role columns below are the statuses the permission rules give, per caller, for the call `call`
 * builds over the fixture (platform P with its staff and users, platform Q with its own).
 */

export type Role = 'platform' | 'admin' | 'broker' | 'user' | 'otherPlatform' | 'otherAdmin' | 'otherUser' | 'paused';
export const ROLES: Role[] = ['platform', 'admin', 'broker', 'user', 'otherPlatform', 'otherAdmin', 'otherUser', 'paused'];

export interface Fixture {
  /** The user of P every call is about (its account, its stars, its notifications). */
  userId: string;
  /** A user of P that the blacklist rows put and take. */
  targetId: string;
  /** A lot of P, organized by P's admin. */
  lotId: string;
  platformId: string;
  /** The user's participation in the lot (deposit pending), its deposit, a create_lot request it filed, a notification to it. */
  participantId: string;
  depositId: string;
  requestId: string;
  notificationId: string;
}

/** The user last: its own call changes what everyone after it would be answered. */
const USER_LAST: Role[] = ['platform', 'admin', 'broker', 'otherPlatform', 'otherAdmin', 'otherUser', 'paused', 'user'];

export interface RestCall {
  target: string;
  body?: unknown;
}

export interface RestRow {
  /** True: 401 unsigned; else the unsigned status is `anon`. */
  auth: boolean;
  anon?: number;
  call: (f: Fixture) => RestCall;
  /** Exact statuses per role; roles not named answer `others` (the paused caller is another user of P than `userId`). */
  roles: Partial<Record<Role, number>> & { others: number };
  /** The callers' order where one's call changes what the next is answered; ROLES by default. */
  order?: Role[];
}

const all = (status: number, extra: Partial<Record<Role, number>> = {}) => ({ others: status, ...extra });
const pub = (call: RestRow['call'], status = 200): RestRow => ({ auth: false, anon: status, call, roles: all(status) });
const staffOfP = (allowed: number, refused: number, extra: Partial<Record<Role, number>> = {}) => ({ others: refused, platform: allowed, admin: allowed, ...extra });

export const REST: Record<string, RestRow> = {
  'GET /': pub(() => ({ target: '/' })),
  'GET /enums/makers': pub(() => ({ target: '/enums/makers' })),
  'GET /enums/countries': pub(() => ({ target: '/enums/countries' })),
  'GET /enums/fuels': pub(() => ({ target: '/enums/fuels' })),
  'GET /enums/wheels': pub(() => ({ target: '/enums/wheels' })),
  'GET /enums/transmissions': pub(() => ({ target: '/enums/transmissions' })),
  // Without its required parameters: the refusal is the same for everyone, and no message is sent.
  'GET /accounts/verification/resend': pub(() => ({ target: '/accounts/verification/resend' }), 400),
  // The token authenticates: a wrong one is 401 whoever signs.
  'PATCH /accounts/verification/email': pub((f) => ({ target: '/accounts/verification/email', body: { data: { type: 'accounts', id: f.userId, attributes: { token: 'x'.repeat(32) } } } }), 401),
  'PATCH /accounts/verification/phone': pub((f) => ({ target: '/accounts/verification/phone', body: { data: { type: 'accounts', id: f.userId, attributes: { token: '000000' } } } }), 401),
  'POST /accounts': { auth: true, call: () => ({ target: '/accounts', body: { data: { type: 'accounts', attributes: {} } } }), roles: all(400) },
  'GET /accounts/:id': pub((f) => ({ target: `/accounts/${f.userId}` })),
  'PATCH /accounts/:id': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}`, body: { data: { type: 'accounts', id: f.userId, attributes: { first_name: 'Ann' } } } }), roles: staffOfP(200, 403, { user: 200 }) },
  'GET /brokers': pub((f) => ({ target: `/brokers?filter[platform_id]=${f.platformId}` })),
  'GET /admins': pub((f) => ({ target: `/admins?filter[platform_id]=${f.platformId}` })),
  'GET /blacklist': { auth: true, call: () => ({ target: '/blacklist' }), roles: { others: 403, platform: 200, admin: 200, otherPlatform: 200, otherAdmin: 200 } },
  'PUT /blacklist': { auth: true, call: (f) => ({ target: '/blacklist', body: { data: { type: 'accounts', id: f.targetId, attributes: { state: 'paused' } } } }), roles: staffOfP(200, 403) },
  // The entry PUT /blacklist made: refused to all but staff of P while it exists; P's admin takes it, then it is gone (existence before permission).
  'DELETE /blacklist/:id': {
    auth: true,
    call: (f) => ({ target: `/blacklist/${f.targetId}` }),
    order: ['broker', 'user', 'otherPlatform', 'otherAdmin', 'otherUser', 'paused', 'admin', 'platform'],
    roles: { others: 403, admin: 204, platform: 404 },
  },
  'PUT /credentials': { auth: true, call: (f) => ({ target: '/credentials', body: { data: { type: 'credentials', id: f.userId, attributes: { password: 'another horse battery' } } } }), roles: all(403, { user: 409 }) },
  // A bearer token is required: without one, signed or not, 403 jwt_required.
  'PATCH /credentials': { auth: false, anon: 403, call: () => ({ target: '/credentials', body: { data: { attributes: { old_password: 'x', new_password: 'another horse battery' } } } }), roles: all(403) },
  'POST /jwt': pub((f) => ({ target: '/jwt', body: { data: { attributes: { account_id: f.userId, password: 'wrong password' } } } }), 401),
  'PATCH /jwt': { auth: false, anon: 403, call: () => ({ target: '/jwt' }), roles: all(403) },
  'PUT /recovery_requests': pub(() => ({ target: '/recovery_requests', body: { data: { attributes: { email: 'nobody@example.com' } } } }), 400),
  'PATCH /recovery_requests': pub((f) => ({ target: '/recovery_requests', body: { data: { type: 'recovery_requests', id: f.userId, attributes: { token: 'x'.repeat(20), new_password: 'another horse battery' } } } }), 404),
  'POST /master/signers': pub(() => ({ target: '/master/signers', body: { data: { type: 'signers', attributes: {} } } }), 400),
  'POST /platforms': pub(() => ({ target: '/platforms', body: { data: { type: 'accounts', attributes: { seed: 'S'.repeat(56) } } } }), 400),
  'GET /convert': pub(() => ({ target: '/convert?from=USD&to=EUR&amount=10' })),
  'POST /convert': pub(() => ({ target: '/convert', body: { data: [{ attributes: { from: 'USD', to: 'EUR', amount: 10 } }] } })),
  'POST /lots': { auth: true, call: () => ({ target: '/lots', body: { data: { type: 'lots', attributes: {} } } }), roles: all(400, { paused: 403 }) },
  'GET /lots': pub(() => ({ target: '/lots' })),
  'GET /lots/count': pub(() => ({ target: '/lots/count' })),
  'GET /lots/aggregate': pub(() => ({ target: '/lots/aggregate?group_by=state' })),
  'GET /lots/:id': pub((f) => ({ target: `/lots/${f.lotId}` })),
  'GET /lots/:id/bid_log': pub((f) => ({ target: `/lots/${f.lotId}/bid_log` })),
  'GET /log/checkpoint': pub(() => ({ target: '/log/checkpoint' })),
  'GET /log/checkpoints': pub(() => ({ target: '/log/checkpoints?from=0' })),
  'GET /log/entries': pub(() => ({ target: '/log/entries?from=0' })),
  'GET /log/keys': pub(() => ({ target: '/log/keys' })),
  // No checkpoint has this size: the answer is the same 404 to everyone.
  'GET /log/proof/inclusion': pub(() => ({ target: '/log/proof/inclusion?leaf_index=0&tree_size=1000000' }), 404),
  'GET /log/proof/consistency': pub(() => ({ target: '/log/proof/consistency?from=1&to=1000000' }), 404),
  // The co-signature is the credential: a note without one is refused alike whoever sends it.
  'POST /log/cosign': pub(() => ({ target: '/log/cosign', body: { data: { type: 'cosignatures', attributes: { note: 'no note' } } } }), 400),
  'POST /lots/:id/bid_requests': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/bid_requests`, body: { data: { type: 'bid_requests', attributes: { amount: '1100' } } } }), roles: all(403) },
  'GET /requests': { auth: true, call: () => ({ target: '/requests?filter[type]=lots' }), roles: all(200) },
  'GET /accounts/:id/create_lot_requests': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/create_lot_requests` }), roles: staffOfP(200, 403, { user: 200 }) },
  // Hidden (404) from all but its requestor and the reviewers.
  'GET /requests/:id': { auth: true, call: (f) => ({ target: `/requests/${f.requestId}` }), roles: { others: 404, platform: 200, admin: 200, user: 200 } },
  // A hash that matches nothing: the reviewers get as far as 400 hash_mismatch and change nothing.
  'PATCH /requests/:id': {
    auth: true,
    call: (f) => ({ target: `/requests/${f.requestId}`, body: { data: { type: 'reviewable_requests', id: f.requestId, attributes: { state: 'approved', hash: '0'.repeat(64) } } } }),
    roles: { others: 403, platform: 400, admin: 400, otherPlatform: 404, otherAdmin: 404, otherUser: 404 },
  },
  'DELETE /requests/:id': { auth: true, call: (f) => ({ target: `/requests/${f.requestId}` }), order: USER_LAST, roles: { others: 403, user: 204 } },
  'POST /accounts/:id/stars': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/stars`, body: { data: { type: 'lots', id: f.lotId } } }), roles: { others: 403, platform: 201, admin: 409, user: 409 } },
  // Saved searches are the account's own business only (docs/saved-searches.md): not even staff of its platform.
  'POST /accounts/:id/saved_searches': {
    auth: true,
    call: (f) => ({ target: `/accounts/${f.userId}/saved_searches`, body: { data: { type: 'saved_searches', attributes: { filter: { maker: 'Toyota' } } } } }),
    roles: { others: 403, user: 201 },
  },
  // Buying power: the account itself and staff of the platform it is read for (docs/auction-rules.md).
  'GET /accounts/:id/buying_power': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/buying_power` }), roles: staffOfP(200, 403, { user: 200 }) },
  'GET /accounts/:id/saved_searches': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/saved_searches` }), roles: { others: 403, user: 200 } },
  'DELETE /accounts/:id/saved_searches/:searchId': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/saved_searches/999999` }), roles: { others: 403, user: 404 } },
  'DELETE /accounts/:id/stars/:lotId': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/stars/999999` }), roles: staffOfP(404, 403, { user: 404 }) },
  'POST /lots/:id/callbacks': { auth: true, call: () => ({ target: '/lots/999999/callbacks' }), roles: all(404) },
  'DELETE /lots/:id/callbacks/:accountId': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/callbacks/${f.userId}` }), roles: staffOfP(404, 403, { user: 404 }) },
  'POST /lots/:id/participation_requests': { auth: true, call: () => ({ target: '/lots/999999/participation_requests', body: { data: { type: 'participation_requests', attributes: {} } } }), roles: all(404) },
  // Buy now: the participant itself only; its deposit is not settled yet (400 participant_not_pending).
  'PATCH /v2/lots/:id/participants/:account': { auth: true, call: (f) => ({ target: `/v2/lots/${f.lotId}/participants/${f.userId}` }), roles: { others: 403, user: 400 } },
  // The user's participation, named with another account: the lot's managers get as far as 400 not_participant.
  'POST /v2/lots/:id/winners': {
    auth: true,
    call: (f) => ({ target: `/v2/lots/${f.lotId}/winners`, body: { data: { type: 'participants', id: f.participantId, attributes: { account_id: f.platformId } } } }),
    roles: staffOfP(400, 403),
  },
  // Rejecting the user's participation: the lot's managers (again and again), nobody else.
  'DELETE /v2/lots/:id/participants/:account': { auth: true, call: (f) => ({ target: `/v2/lots/${f.lotId}/participants/${f.userId}` }), roles: staffOfP(204, 403) },
  'POST /lots/closed': { auth: true, call: () => ({ target: '/lots/closed', body: { data: { type: 'lots', id: '999999', attributes: { state: 'finished' } } } }), roles: all(404) },
  'PUT /lots/:id/winner_details': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/winner_details`, body: { data: { type: 'winner_details', attributes: {} } } }), roles: staffOfP(200, 403) },
  'GET /deposits': { auth: true, call: () => ({ target: '/deposits' }), roles: all(200) },
  // The user's deposit: pending, so the publisher's staff get as far as 400 invalid_deposit_transition.
  'PATCH /deposits/:id': { auth: true, call: (f) => ({ target: `/deposits/${f.depositId}`, body: { data: { type: 'deposits', id: f.depositId, attributes: { state: 'returned' } } } }), roles: staffOfP(400, 403) },
  'POST /documents': { auth: true, call: () => ({ target: '/documents', body: {} }), roles: all(415) },
  'GET /documents/:id': pub(() => ({ target: '/documents/missing.pdf' }), 404),
  'GET /documents': { auth: true, call: () => ({ target: '/documents?in=missing.pdf' }), roles: all(401) },
  'GET /counts': { auth: true, call: () => ({ target: '/counts' }), roles: all(200) },
  'GET /notifications': { auth: true, call: () => ({ target: '/notifications' }), roles: all(200) },
  'DELETE /notifications/:id': { auth: true, call: (f) => ({ target: `/notifications/${f.notificationId}` }), order: USER_LAST, roles: { others: 404, user: 204 } },
  'POST /notifications': { auth: true, call: () => ({ target: '/notifications', body: { data: [{ type: 'notifications', id: '999999' }] } }), roles: all(404) },
  'POST /notifications/events': { auth: true, call: (f) => ({ target: '/notifications/events', body: { data: { type: 'notification_events', attributes: { type: 9, recipient: f.userId, meta: {} } } } }), roles: { others: 403, platform: 204, otherPlatform: 400 } },
  'POST /transactions': pub(() => ({ target: '/transactions', body: { data: { attributes: { tx: 'AAAA' } } } }), 400),
  'GET /ledger/accounts/:id': pub((f) => ({ target: `/ledger/accounts/${f.userId}` })),
  // No transaction has this hash: the answer is the same 404 to everyone.
  'GET /ledger/transactions/:hash': pub(() => ({ target: `/ledger/transactions/${'0'.repeat(64)}` }), 404),
  'POST /messages': { auth: true, call: () => ({ target: '/messages', body: { data: { type: 'messages', attributes: {} } } }), roles: all(400, { paused: 403 }) },
  'GET /lots/:id/messages': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/messages` }), roles: all(200) },
  'GET /messages/dialogs': { auth: true, call: () => ({ target: '/messages/dialogs' }), roles: all(200) },
  'GET /messages/unread': { auth: true, call: () => ({ target: '/messages/unread' }), roles: all(200) },
  'PATCH /accounts/:id/messages': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/messages`, body: { data: { attributes: { lot_id: Number(f.lotId), sender: f.platformId } } } }), roles: staffOfP(204, 403, { user: 204 }) },
  'PATCH /accounts/:id/messages/': { auth: true, call: (f) => ({ target: `/accounts/${f.userId}/messages/`, body: { data: { attributes: { lot_id: Number(f.lotId), sender: f.platformId } } } }), roles: staffOfP(204, 403, { user: 204 }) },  'GET /platforms/:id/rules': { auth: true, call: (f) => ({ target: `/platforms/${f.platformId}/rules` }), roles: staffOfP(200, 403) },
  // Turning off a rule that is off: a new version that changes nothing the other rows meet.
  // A platform's statistics: its staff only (and the master account, no role here).
  'GET /platforms/:id/stats': { auth: true, call: (f) => ({ target: `/platforms/${f.platformId}/stats?from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&interval=day` }), roles: staffOfP(200, 403) },
  'PATCH /platforms/:id/rules': {
    auth: true,
    call: (f) => ({ target: `/platforms/${f.platformId}/rules`, body: { data: { type: 'platform_rules', id: f.platformId, attributes: { max_extension_seconds: null } } } }),
    roles: staffOfP(200, 403),
  },
  // Dropping a reserve the lot does not have: its managers change nothing the other rows meet.
  'PATCH /lots/:id': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}`, body: { data: { type: 'lots', id: f.lotId, attributes: { reserve_price: null } } } }), roles: staffOfP(200, 403) },
  'GET /lots/:id/fee_estimate': pub((f) => ({ target: `/lots/${f.lotId}/fee_estimate?amount=1000` })),
  // The lot has no canceled deal: its managers get as far as 400 second_chance_not_allowed.
  'POST /lots/:id/second_chance_offers': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/second_chance_offers`, body: { data: { type: 'second_chance_offers', attributes: {} } } }), roles: staffOfP(400, 403) },
  // No offer was made: the managers see an empty list, and nobody else was offered it.
  'GET /lots/:id/second_chance_offers': { auth: true, call: (f) => ({ target: `/lots/${f.lotId}/second_chance_offers` }), roles: staffOfP(200, 403) },
  'PATCH /lots/:id/second_chance_offers/:offerId': {
    auth: true,
    call: (f) => ({ target: `/lots/${f.lotId}/second_chance_offers/999999`, body: { data: { type: 'second_chance_offers', attributes: { state: 'accepted' } } } }),
    roles: all(404),
  },
};

/**
 * GraphQL queries and mutations: whether the field needs a caller (an anonymous call answers
 * `unauthenticated` 401); the role checks are those of the REST twin, which
 * calls the same service method (audited above).
 */
export const GRAPHQL: Record<string, { auth: boolean; anon?: number }> = {
  ...Object.fromEntries([
    ...['account', 'admins', 'adminsConnection', 'brokers', 'brokersConnection', 'convert', 'convertMany', 'countries', 'currencyRates', 'document', 'feeEstimate', 'fuelTypes', 'ledgerAccount', 'ledgerTransaction', 'logCheckpoint', 'logCheckpoints', 'logConsistencyProof', 'logEntries', 'logEntriesConnection', 'logInclusionProof', 'logKeys', 'lot', 'lots', 'lotsAggregate', 'lotsCount', 'makers', 'node', 'nodes', 'ping', 'transmissionTypes', 'wheelPositions'].map(
      (name) => [name, { auth: false }],
    ),
    ...[
      'accountCreateLotRequests',
      'accountCreateLotRequestsConnection',
      'accounts',
      'accountsConnection',
      'blacklist',
      'blacklistConnection',
      'buyingPower',
      'deposits',
      'documents',
      'documentsConnection',
      'lotMessages',
      'lotMessagesConnection',
      'me',
      'messageDialogs',
      'messageDialogsConnection',
      'notificationCounts',
      'notifications',
      'platformRules',
      'platformStats',
      'request',
      'requests',
      'requestsConnection',
      'savedSearches',
      'secondChanceOffers',
      'secondChanceOffersConnection',
      'unreadMessages',
      'viewer',
      'watchlist',
      'watchlistConnection',
    ].map(
      (name) => [name, { auth: true }],
    ),
    ...[
      'addMasterAccountSigner',
      'addMasterSigner',
      'approveRecovery',
      'confirmRecovery',
      'cosignCheckpoint',
      'createPlatform',
      'issueToken',
      'registerPlatform',
      'requestRecovery',
      'resendVerification',
      'sendTransaction',
      'sendVerification',
      'startRecovery',
      'submitTransaction',
    ].map((name) => [name, { auth: false }]),
    ...[
      'addBlacklistEntry',
      'addCallbackRequest',
      'addCredentials',
      'addLot',
      'addSavedSearch',
      'addStar',
      'answerSecondChance',
      'answerSecondChanceOffer',
      'blacklistAccount',
      'cancelCreateLotRequest',
      'cancelRequest',
      'chooseWinner',
      'closeLot',
      'createCredentials',
      'createLot',
      'createSecondChanceOffer',
      'deleteCallback',
      'deleteSavedSearch',
      'editAccount',
      'editLot',
      'editPlatformRules',
      'markMessagesAsRead',
      'markMessagesRead',
      'markNotificationRead',
      'markNotificationsAsRead',
      'markNotificationsRead',
      'offerSecondChance',
      'placeBid',
      'postMessage',
      'recordNotificationEvent',
      'rejectParticipant',
      'removeBlacklistEntry',
      'removeCallbackRequest',
      'removeParticipant',
      'removeSavedSearch',
      'removeStar',
      'reportNotificationEvent',
      'requestBuyNow',
      'requestCallback',
      'requestParticipation',
      'reviewCreateLotRequest',
      'reviewRequest',
      'saveSearch',
      'selectWinner',
      'sendMessage',
      'setCurrencyRate',
      'setDepositState',
      'setWinnerDetails',
      'settleLot',
      'starLot',
      'submitBid',
      'submitBuyNowRequest',
      'submitParticipationRequest',
      'unblacklistAccount',
      'unstarLot',
      'updateAccount',
      'updateCurrencyRate',
      'updateDepositState',
      'updateLot',
      'updatePlatformRules',
      'updateWinnerDetails',
    ].map((name) => [name, { auth: true }]),
  ]),
  // A key that is no account yet signs its own creation: unsigned is 401.
  createAccount: { auth: true },
  registerAccount: { auth: true },
  // The token authenticates: a wrong one is 401.
  verifyEmail: { auth: false, anon: 401 },
  verifyPhone: { auth: false, anon: 401 },
  confirmEmail: { auth: false, anon: 401 },
  confirmPhone: { auth: false, anon: 401 },
  // Anyone but staff of the recipient's platform gets forbidden.
  outbox: { auth: false, anon: 403 },
  outboxConnection: { auth: false, anon: 403 },
  // A bearer token is required.
  refreshToken: { auth: false, anon: 403 },
  changePassword: { auth: false, anon: 403 },
  // The same refusal, answered in userErrors.
  updatePassword: { auth: false },
};

/** Subscriptions over graphql-ws: `bidPlaced` and `lotUpdated` are public, `notificationAdded` needs a caller. */
export const SUBSCRIPTIONS: Record<string, { auth: boolean }> = {
  bidPlaced: { auth: false },
  lotUpdated: { auth: false },
  notificationAdded: { auth: true },
  savedSearchMatched: { auth: true },
  lotsUpdated: { auth: false },
  viewerUpdated: { auth: true },
  platformActivity: { auth: true },
};
