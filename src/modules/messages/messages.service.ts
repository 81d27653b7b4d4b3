import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, RequestContext } from '../../core/context';
import { integerId } from '../../core/ids';
import { forbidden, invalid, notFound } from '../../core/errors';
import { listBound } from '../../core/page';
import {
  conversationScope,
  isStaffOf,
  mayMarkMessagesRead,
  maySendMessageAs,
  readsConversation,
  requireActive,
  requireCaller,
  seesFullAccount,
} from '../../core/policies';
import { inTransaction } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { type AccountView, Account } from '../accounts';
import { AccountType } from '../../core/account-type';
import { Lot, lotView, OWN_CURRENCY, type LotView, findLot } from '../lots';
import { NotificationType, type NotificationsService } from '../notifications';
import { dialogId, dialogKeyOf, Message, type Dialog, type DialogKey } from './messages.entity';
import {
  dialogsInput,
  listInput,
  markReadInput,
  sendInput,
  unreadInput,
  windowInput,
  type DialogsInput,
  type MarkReadInput,
  type MessageFilterQuery,
  type MessageListInput,
  type MessageWindowInput,
  type SendMessageInput,
  type UnreadInput,
} from './messages.input';
import { countUnread, dialogsInScope, listDialogs, listMessages, messagesInScope, unreadPerLot, windowOfDialogs, windowOfMessages, type ReadScope } from './messages.listing';
import type { ListWindow, WindowPage } from '../../core/list-window';

export interface MessagePage {
  lot: Lot;
  items: Message[];
  total: number;
  page: number;
  size: number;
}

/** The lots and accounts that messages or dialogs name, for the `lot` and `members` includes. */
export interface Related {
  lots: LotView[];
  accounts: AccountView[];
}

/** Rows that name a lot and accounts: messages (sender, receiver) and dialogs (account, companion). */
export interface Relating {
  lotId: string;
  members: string[];
}

const notAllowed = () => forbidden('not_allowed', 'only the accounts of a conversation and staff of the lot\'s publisher may read it');

/**
 * Messages between accounts about lots: sent as
 * the sender or by staff of its platform, read by the two accounts of a conversation and by staff
 * of the lot's publisher. A message to the lot's organizer notifies it as `message_from_buyer`;
 * a message from the organizer notifies the receiver as `message_from_seller`.
 */
export class MessagesService {
  constructor(private readonly notifications: NotificationsService) {}

  /** POST /messages. */
  async send(ctx: RequestContext, input: Untrusted<SendMessageInput>): Promise<Message> {
    const caller = requireCaller(ctx);
    requireActive(caller);
    const attrs = validateInput(sendInput, input);
    const sender = await this.account(ctx.em, attrs.sender, 'sender');
    if (!maySendMessageAs(caller, sender)) throw forbidden('not_allowed', "only the sender itself or staff of the sender's platform may send as the sender");
    if (attrs.receiver === attrs.sender) throw invalid('invalid_field', 'receiver: must differ from sender', { field: 'receiver' });
    const lot = await this.lot(ctx.em, attrs.lotId);
    await this.account(ctx.em, attrs.receiver, 'receiver');
    const ref = attrs.refMessageId ?? null;
    if (ref !== null) await this.checkReference(ctx.em, ref, lot.id, [attrs.sender, attrs.receiver]);
    return inTransaction(ctx, async (em, scope) => {
      const message = em.create(Message, { lotId: lot.id, sender: attrs.sender, receiver: attrs.receiver, text: attrs.text, refMessageId: ref });
      await em.flush();
      const meta = { lot_id: lot.id, sender_id: attrs.sender, receiver_id: attrs.receiver };
      if (lot.organizerId === attrs.receiver) await this.notifications.emit(em, scope, NotificationType.MessageFromBuyer, [attrs.receiver], meta);
      if (lot.organizerId === attrs.sender) await this.notifications.emit(em, scope, NotificationType.MessageFromSeller, [attrs.receiver], meta);
      return message;
    });
  }

  /**
   * GET /lots/{id}/messages: staff of the lot's publisher read all of them, anyone else its own
   * conversations. Asking for a conversation the caller is no account of (both `sender` and
   * `receivers` name others) is 403, as is `platform` naming a platform whose staff it is not.
   */
  async list(ctx: RequestContext, input: Untrusted<MessageListInput>): Promise<MessagePage> {
    const { lot, scope, q } = await this.readable(ctx, input);
    const { sort, page, size } = validateInput(listInput, input);
    const { items, total } = await listMessages(ctx.em, lot.id, scope, { ...q, sort, page, size });
    return { lot, items, total, page, size };
  }

  /** `lotMessagesConnection`: the messages `list` finds, newest first, one window paged in the database. */
  async window(ctx: RequestContext, input: Untrusted<MessageWindowInput>, window: ListWindow): Promise<WindowPage<Message>> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const { lot, scope, q } = await this.readable(ctx, input);
    return windowOfMessages(ctx.em, lot.id, scope, q, window);
  }

  /** The lot, the caller's scope and the filters of a listing of the lot's messages, refused as `list` says. */
  private async readable(ctx: RequestContext, input: Untrusted<MessageWindowInput>): Promise<{ lot: Lot; scope: ReadScope; q: MessageFilterQuery }> {
    const caller = requireCaller(ctx);
    const lot = await findLot(ctx.em, input.lotId);
    const { lotIdFilter, ...q } = validateInput(windowInput, input);
    if (q.sender && q.receivers && !readsConversation(caller, lot, [q.sender, ...q.receivers])) throw notAllowed();
    this.checkPlatforms(caller, q.platform);
    // The statements' lotId is the filter's: the path's lot is `lot.id`.
    return { lot, scope: conversationScope(caller), q: { ...q, lotId: lotIdFilter } };
  }

  /**
   * Messages by id (`node(id:)`), read as `list` reads a lot's: those of the caller's conversations
   * and of lots whose publisher's staff it is. Any other id is absent, as one of no message.
   */
  async visibleByIds(ctx: RequestContext, ids: readonly string[]): Promise<Message[]> {
    const caller = requireCaller(ctx);
    const wellFormed = ids.filter((id) => integerId(id) !== null);
    return messagesInScope(ctx.em, wellFormed, conversationScope(caller));
  }

  /**
   * GET /messages/dialogs: the dialogs of `receivers` (the caller by default). Another account's
   * dialogs are shown where the caller is the companion or staff of the lot's publisher; a caller
   * who is neither, whatever the lot, gets 403.
   */
  async dialogs(ctx: RequestContext, input: Untrusted<DialogsInput>, limit?: number): Promise<Dialog[]> {
    // The latest `limit` (GraphQL bounds it); REST asks for no bound and lists them all.
    const bound = limit === undefined ? null : listBound(limit, 'limit');
    const { accounts, scope, q } = this.dialogsReadable(ctx, input);
    return listDialogs(ctx.em, accounts, scope, q, bound);
  }

  /** `messageDialogsConnection`: the dialogs `dialogs` finds, latest first, one window paged in the database. */
  async dialogsWindow(ctx: RequestContext, input: Untrusted<DialogsInput>, window: ListWindow): Promise<WindowPage<Dialog>> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const { accounts, scope, q } = this.dialogsReadable(ctx, input);
    return windowOfDialogs(ctx.em, accounts, scope, q, window);
  }

  /** Whose dialogs are asked for, in the caller's scope; refused as `dialogs` says. */
  private dialogsReadable(ctx: RequestContext, input: Untrusted<DialogsInput>) {
    const caller = requireCaller(ctx);
    const q = validateInput(dialogsInput, input);
    const accounts = q.receivers ?? [caller.accountId];
    const scope = conversationScope(caller);
    const othersOnly = !accounts.includes(caller.accountId) && q.with !== caller.accountId;
    if (othersOnly && !scope.publishers.length) throw notAllowed();
    return { accounts, scope, q };
  }

  /**
   * Dialogs by id (`node(id:)`), `<lot>-<account>-<companion>`, read as `dialogs` reads them: those
   * the caller takes part in and those about lots whose publisher's staff it is; in the order of
   * `ids`, any other null, as an id of no dialog.
   */
  async visibleDialogs(ctx: RequestContext, ids: readonly string[]): Promise<(Dialog | null)[]> {
    const caller = requireCaller(ctx);
    const keys = ids.map(dialogKeyOf).filter((k): k is DialogKey => k !== null);
    const found = new Map((await dialogsInScope(ctx.em, keys, conversationScope(caller))).map((d) => [dialogId(d), d]));
    return ids.map((id) => found.get(id) ?? null);
  }

  /** GET /messages/unread: unread messages to `receiver` (the caller by default) that match. */
  async unread(ctx: RequestContext, input: Untrusted<UnreadInput>): Promise<number> {
    const caller = requireCaller(ctx);
    const q = validateInput(unreadInput, input);
    const receiver = q.receiver ?? caller.accountId;
    const scope = conversationScope(caller);
    const othersOnly = receiver !== caller.accountId && q.sender !== caller.accountId;
    if (othersOnly && !scope.publishers.length) throw notAllowed();
    return countUnread(ctx.em, receiver, scope, q);
  }

  /**
   * PATCH /accounts/{id}/messages/: marks read the messages from `sender` to `receiver` (the path's
   * account by default) about the lot; answers how many became read. The path's account is the
   * caller or an account of a platform whose staff the caller is.
   */
  async markRead(ctx: RequestContext, input: Untrusted<MarkReadInput>): Promise<number> {
    const caller = requireCaller(ctx);
    const { accountId } = validateInput(markReadInput.pick({ accountId: true }), { accountId: input.accountId });
    const account = await ctx.em.findOne(Account, { id: accountId, accountType: { $ne: AccountType.Master } });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    if (caller.accountId !== account.id && !isStaffOf(caller, account.platformId)) {
      throw forbidden('not_allowed', 'only the account itself or staff of its platform may mark its messages read');
    }
    const attrs = validateInput(markReadInput, input);
    const receiver = attrs.receiver === undefined || attrs.receiver === account.id ? account : await this.account(ctx.em, attrs.receiver, 'receiver');
    const lot = await this.lot(ctx.em, attrs.lotId);
    if (!mayMarkMessagesRead(caller, receiver, lot)) throw forbidden('not_allowed', "only the receiver, staff of its platform or staff of the lot's publisher may mark its messages read");
    return inTransaction(ctx, (em) =>
      em.nativeUpdate(Message, { receiver: receiver.id, sender: attrs.sender, lotId: lot.id, readAt: null }, { readAt: new Date() }),
    );
  }

  /** The lots and accounts the rows name (one query each), in the views the caller may see (lots in their own currencies). */
  async related(ctx: RequestContext, rows: readonly Relating[], include: ReadonlySet<string>): Promise<Related> {
    const lotIds = include.has('lot') ? [...new Set(rows.map((r) => r.lotId))] : [];
    const accountIds = include.has('members') ? [...new Set(rows.flatMap((r) => r.members))] : [];
    const lots = lotIds.length ? await ctx.em.find(Lot, { id: { $in: lotIds } }, { orderBy: { id: 'asc' } }) : [];
    const accounts = accountIds.length ? await ctx.em.find(Account, { id: { $in: accountIds } }, { orderBy: { id: 'asc' } }) : [];
    return { lots: lots.map((lot) => lotView(ctx.caller, lot, OWN_CURRENCY)), accounts: accounts.map((account) => ({ account, full: seesFullAccount(ctx.caller, account) })) };
  }

  /** The caller's unread messages per lot (the lots' `messages` include); null for anonymous callers. */
  async unreadOnLots(ctx: RequestContext, lotIds: readonly string[]): Promise<Map<string, number> | null> {
    return ctx.caller ? unreadPerLot(ctx.em, ctx.caller.accountId, lotIds) : null;
  }

  private checkPlatforms(caller: Caller, platforms: readonly string[] | undefined): void {
    if (platforms && !platforms.every((p) => isStaffOf(caller, p))) {
      throw forbidden('not_allowed', 'the platform filter may name only platforms whose staff the caller is');
    }
  }

  /** An account a request body names: 400 `account_not_found` when there is none. */
  private async account(em: EntityManager, id: string, field: 'sender' | 'receiver'): Promise<Account> {
    const account = await em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
    if (!account) throw invalid('account_not_found', `${field}: no account with this id`, { field });
    return account;
  }

  /** The lot a request body names: 400 `lot_not_found` when there is none. */
  private async lot(em: EntityManager, id: string): Promise<Lot> {
    const lot = await em.findOne(Lot, { id });
    if (!lot) throw invalid('lot_not_found', 'lotId: no lot with this id', { field: 'lotId' });
    return lot;
  }

  /** A reply refers to a message of the same conversation (either direction) about the same lot. */
  private async checkReference(em: EntityManager, id: string, lotId: string, members: string[]): Promise<void> {
    const ref = await em.findOne(Message, { id });
    if (!ref || ref.lotId !== lotId || !members.includes(ref.sender) || !members.includes(ref.receiver)) {
      throw invalid('invalid_field', 'refMessageId: no message of this conversation has this id', { field: 'refMessageId' });
    }
  }
}
