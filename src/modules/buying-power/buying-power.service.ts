import type { RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { Money } from '../../core/money';
import { isStaffOf, requireCaller } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { rowsOf } from '../../db/query';
import { Account } from '../accounts';
import { BASE_CURRENCY } from '../currency';
import type { RulesService } from '../rules';
import { buyingPowerInput, type BuyingPowerInput } from './buying-power.input';
import { powerQuery, powerRowsOf } from './buying-power.sql';

/** An account's buying power on one platform, in EUR to the cent; limit and left are null while the platform sets no multiple. */
export interface BuyingPower {
  accountId: string;
  platformId: string;
  /** The multiple of the platform's current rules. */
  multiple: string | null;
  deposits: Money;
  limit: Money | null;
  inUse: Money;
  /** Never below 0. */
  left: Money | null;
  currency: string;
}

/** Buying power as an account sees it (docs/auction-rules.md); the bid round holds bids to it (buying-power.round.ts). */
export class BuyingPowerService {
  constructor(private readonly rules: RulesService) {}

  /** GET /accounts/{id}/buying_power: the account itself and staff of the platform. */
  async get(ctx: RequestContext, input: Untrusted<BuyingPowerInput>): Promise<BuyingPower> {
    const caller = requireCaller(ctx);
    const { accountId, platformId: asked } = validateInput(buyingPowerInput, input, 'parameter');
    const account = await ctx.em.findOne(Account, { id: accountId });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    const platformId = asked ?? account.platformId;
    if (!platformId) throw invalid('missing_parameter', 'platformId is required for an account of no platform', { field: 'platformId' });
    if (caller.accountId !== accountId && !isStaffOf(caller, platformId)) throw forbidden('not_allowed', "only the account itself and staff of the platform may read its buying power");
    const { rules } = await this.rules.current(ctx.em, platformId);
    const [{ deposits: depositsEur, inUse: inUseEur }] = powerRowsOf(await rowsOf(ctx.em, powerQuery(platformId, [accountId], null)));
    const multiple = rules.buyingPowerMultiple;
    const limit = multiple === null ? null : depositsEur.times(multiple);
    return {
      accountId,
      platformId,
      multiple,
      deposits: depositsEur.toDecimalPlaces(2),
      limit: limit && limit.toDecimalPlaces(2),
      inUse: inUseEur.toDecimalPlaces(2),
      // A limit that shrank below what is held (a deposit returned) leaves nothing, never less.
      left: limit && Money.max(limit.minus(inUseEur), 0).toDecimalPlaces(2),
      currency: BASE_CURRENCY,
    };
  }
}
