import { resource, type Resource } from '../../rest/document';
import type { Callback, Star } from './watchlist.entity';

/** A watchlist entry: `{type: lots, id: <lot id>, attributes: {account_id}}`. */
export const presentStar = (s: Star): Resource => resource('lots', s.lotId, { account_id: s.accountId });

/** A callback request: `{type: callbacks, id, attributes: {account_id}}`. */
export const presentCallback = (c: Callback): Resource => resource('callbacks', c.id, { account_id: c.accountId });
