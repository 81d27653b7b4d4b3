import { formatMoney } from '../../core/money';
import { resource, type Resource } from '../../rest/document';
import { conversionId, type Conversion } from './currency.service';

/** A converted amount: `{type: converted_currency, id, attributes: {amount, currency}}`. */
export const presentConversion = (c: Conversion): Resource =>
  resource('converted_currency', conversionId(c), { amount: formatMoney(c.result), currency: c.to });
