import { rfc3339 } from '../../core/time';
import type { Resource, ResourceIdentifier } from '../../rest/document';
import { presentAccount } from '../accounts';
import { lotAttributes } from '../lots';
import { dialogId, type Dialog, type Message } from './messages.entity';
import type { Related } from './messages.service';

const lotRef = (lotId: string): { data: ResourceIdentifier } => ({ data: { type: 'lots', id: lotId } });
const membersRef = (a: string, b: string): { data: ResourceIdentifier[] } => ({ data: [{ type: 'accounts', id: a }, { type: 'accounts', id: b }] });

/** A message: `account_id` is its sender; also its receiver and times. */
export const presentMessage = (m: Message): Resource => ({
  type: 'messages',
  id: m.id,
  attributes: {
    account_id: m.sender,
    receiver_id: m.receiver,
    lot_id: Number(m.lotId),
    ref_message_id: m.refMessageId,
    text: m.text,
    created_at: rfc3339(m.createdAt),
    read_at: m.readAt ? rfc3339(m.readAt) : null,
  },
  relationships: { lot: lotRef(m.lotId), members: membersRef(m.sender, m.receiver) },
});

/** A dialog seen from `account_id`, with `with` the companion. */
export const presentDialog = (d: Dialog): Resource => ({
  type: 'dialogs',
  id: dialogId(d),
  attributes: {
    lot_id: Number(d.lotId),
    with: d.withId,
    unread_messages: d.unread,
    account_id: d.accountId,
    last_message_at: rfc3339(d.lastMessageAt),
  },
  relationships: { lot: lotRef(d.lotId), members: membersRef(d.accountId, d.withId) },
});

/** An unread counter. */
export const presentUnread = (id: string, count: number, extra: Record<string, unknown> = {}): Resource => ({
  type: 'unread_messages',
  id,
  attributes: { count, ...extra },
});

export const presentRelated = (related: Related): Resource[] => [
  ...related.lots.map((lot): Resource => ({ type: 'lots', id: lot.id, attributes: lotAttributes(lot) })),
  ...related.accounts.map(presentAccount),
];
