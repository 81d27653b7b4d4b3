import { Extensions, Field, ObjectType, registerEnumType } from 'type-graphql';
import { ERROR_CODES, type ErrorCode } from '../core/error-codes';
import { DomainError, type ErrorKind } from '../core/errors';
import { listItems } from './list-items';

/** The error codes of docs/errors.md as GraphQL enum values: `bid_too_low` is `BID_TOO_LOW`. */
export const UserErrorCode = Object.fromEntries([...new Set(ERROR_CODES.map((r) => r.code))].map((code) => [code.toUpperCase(), code])) as Record<string, ErrorCode>;

registerEnumType(UserErrorCode, { name: 'UserErrorCode', description: 'The machine code of a refusal, as docs/errors.md lists it' });

/**
 * The most user errors a payload answers: one per faulty field of its input, and no input of a
 * payload mutation has this many; the cost analysis counts the list at this bound.
 */
export const MOST_USER_ERRORS = 10;

@ObjectType('UserError', { description: 'Why a payload mutation changed nothing: a refusal the caller can act on' })
export class UserErrorGql {
  @Field(() => UserErrorCode) code!: ErrorCode;
  @Field(() => String, { nullable: true, description: 'The field of the input at fault, dotted (`amount`, `details.country`); null when the refusal is about the call as a whole' }) field!: string | null;
  @Field(() => String) message!: string;
  @Field(() => String, { nullable: true, description: 'BID_TOO_LOW: the least amount the lot takes now, a decimal string in its currency' }) minimumAmount!: string | null;
  @Field(() => String, { nullable: true, description: 'BID_STEP_INVALID: the most the lot takes now, a decimal string in its currency' }) maximumAmount!: string | null;
}

/**
 * Refusals of the call itself that a payload answers; authentication, rate limits and faults stay
 * top-level errors (a stopped account is refused as authentication is, before any field runs).
 */
const CALL_REFUSALS = new Set<ErrorKind>(['invalid', 'forbidden', 'not_found', 'conflict']);

/** The user errors a failure stands for, or null when it must stay a top-level error. */
export function userErrorsOf(error: unknown): UserErrorGql[] | null {
  if (!(error instanceof DomainError) || !CALL_REFUSALS.has(error.kind)) return null;
  return error.items.slice(0, MOST_USER_ERRORS).map((item) => ({
    code: item.code,
    field: item.source && 'field' in item.source ? item.source.field : null,
    message: item.detail,
    minimumAmount: item.values?.minimumAmount ?? null,
    maximumAmount: item.values?.maximumAmount ?? null,
  }));
}

/** The field every payload has: its refusals, empty when the mutation took effect. */
export const userErrorsField = () => {
  const decorate = Field(() => [UserErrorGql], { description: 'Empty when the mutation took effect; else why it changed nothing' });
  const bound = Extensions(listItems(MOST_USER_ERRORS));
  return (target: object, key: string) => {
    decorate(target, key);
    bound(target, key);
  };
};

/**
 * A payload mutation's answer: what `run` answers and no user errors, or `refused` (its fields
 * null) with the user errors its refusal stands for. Other failures are thrown on.
 */
export async function payloadOf<T extends object>(refused: T, run: () => Promise<T>): Promise<T & { userErrors: UserErrorGql[] }> {
  try {
    return { ...(await run()), userErrors: [] };
  } catch (err) {
    const userErrors = userErrorsOf(err);
    if (!userErrors) throw err;
    return { ...refused, userErrors };
  }
}
