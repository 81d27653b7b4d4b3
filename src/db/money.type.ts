import { Type } from '@mikro-orm/core';
import { Money } from '../core/money';

/** numeric(20,2) as a decimal, never a float: PostgreSQL sends numerics as strings. */
export class MoneyType extends Type<Money | null, string | null> {
  override convertToDatabaseValue(value: Money | string | null): string | null {
    if (value === null || value === undefined) return null;
    return new Money(value).toFixed(2);
  }

  override convertToJSValue(value: string | Money | null): Money | null {
    if (value === null || value === undefined) return null;
    return new Money(value);
  }

  override compareAsType(): string {
    return 'string';
  }

  override getColumnType(): string {
    return 'numeric(20,2)';
  }
}
