import { resource, type Resource } from '../../rest/document';
import type { BlacklistItem } from './blacklist.service';

/** A blacklist entry: `{type: accounts, id, attributes: {state}}`. */
export const presentBlacklistItem = (e: BlacklistItem): Resource => resource('accounts', e.accountId, { state: e.state });
