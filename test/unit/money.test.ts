import Decimal from 'decimal.js';
import { formatMoney, Money, parseMoney } from '../../src/core/money';

describe('parseMoney', () => {
  it.each([
    ['110', '110.00'],
    ['110.5', '110.50'],
    ['110.50', '110.50'],
    ['0', '0.00'],
    ['0.01', '0.01'],
    ['007.10', '7.10'],
    ['123456789012345678.99', '123456789012345678.99'],
  ])('accepts the string %j as %s', (input, expected) => {
    const value = parseMoney(input);
    expect(Decimal.isDecimal(value)).toBe(true);
    expect(value?.toFixed(2)).toBe(expected);
  });

  it.each([
    [110, '110.00'],
    [110.5, '110.50'],
    [110.55, '110.55'],
    [0, '0.00'],
    [0.01, '0.01'],
    [1250.1, '1250.10'],
    [999999999999999, '999999999999999.00'],
    [9999999999999.99, '9999999999999.99'],
  ])('accepts the number %p as %s', (input, expected) => {
    const value = parseMoney(input);
    expect(Decimal.isDecimal(value)).toBe(true);
    expect(value?.toFixed(2)).toBe(expected);
  });

  it('keeps the exact decimal value of a string (no float rounding)', () => {
    expect(parseMoney('0.10')?.plus(parseMoney('0.20') as Decimal).toFixed(2)).toBe('0.30');
    expect(parseMoney('123456789012345678.01')?.toString()).toBe('123456789012345678.01');
  });

  it.each([
    '1.234',
    '110.001',
    '-1',
    '-0.5',
    '+1',
    'abc',
    '',
    ' 110',
    '110 ',
    '110.',
    '.5',
    '1,5',
    '1e30',
    '1E30',
    '1e3',
    '1e+30',
    'NaN',
    'Infinity',
    '0x10',
    '1234567890123456789',
  ])('rejects the string %j', (input) => {
    expect(parseMoney(input)).toBeNull();
  });

  it.each([1.234, 0.001, -1, -0.01, -0, NaN, Infinity, -Infinity, 0.1 + 0.2, 1e18, 1e30, Number('123456789012345678'), Number('1234567890123456.7'), 1e16])('rejects the number %p', (input) => {
    expect(parseMoney(input)).toBeNull();
  });

  it.each([null, undefined, true, {}, [], ['110']])('rejects the non-amount %p', (input) => {
    expect(parseMoney(input)).toBeNull();
  });
});

describe('formatMoney', () => {
  it.each<[Decimal.Value, string]>([
    ['110', '110.00'],
    [110, '110.00'],
    [110.5, '110.50'],
    ['110.5', '110.50'],
    ['0', '0.00'],
    [0, '0.00'],
    ['1.005', '1.01'],
    ['1.004', '1.00'],
    ['2.675', '2.68'],
    ['0.125', '0.13'],
    ['0.135', '0.14'],
    ['9.995', '10.00'],
    ['1.0049999', '1.00'],
    ['123456789012345678.995', '123456789012345679.00'],
    [new Decimal('12.345'), '12.35'],
    ['7', '7.00'],
    ['123.4', '123.40'],
    ['-5.5', '-5.50'],
    ['-0', '0.00'],
    ['-0.004', '-0.00'],
    ['1e21', '1000000000000000000000.00'],
    ['1e-8', '0.00'],
  ])('formats %p as %s', (input, expected) => {
    expect(formatMoney(input)).toBe(expected);
  });

  it('writes every amount as toFixed(2) rounding half up would, short or not', () => {
    // Amounts of every magnitude and sign, as read (two places), converted (many) and multiplied.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647);
    for (let i = 0; i < 20_000; i++) {
      const amount = new Money(`${next() % 2 ? '-' : ''}${next()}${next()}e${(next() % 36) - 16}`);
      for (const value of [amount, amount.toDecimalPlaces(2), amount.toDecimalPlaces(1), amount.div(3), amount.times('1.1')]) {
        expect(formatMoney(value)).toBe(value.toFixed(2, Decimal.ROUND_HALF_UP));
      }
    }
  });

  it('formats a parsed amount with exactly two decimals', () => {
    expect(formatMoney(parseMoney('110.5') as Decimal)).toBe('110.50');
  });
});
