import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { withoutNulls, type Untrusted } from '../../core/validate';
import { sortArg } from '../../graphql/args';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import type { RequestListInput } from './requests.input';
import type { RequestPage, RequestWindow } from './requests.service';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { CreateLotRequestConnectionArgs, CreateLotRequestConnectionGql } from './requests.connection.types';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import {
  CancelCreateLotRequestInput,
  CancelCreateLotRequestPayloadGql,
  CreateLotRequestGql,
  CreateLotRequestPageGql,
  requestGql,
  ReviewCreateLotRequestInput,
  ReviewCreateLotRequestPayloadGql,
} from './requests.types';
import { runsStatement } from '../../graphql/statement-cost';

type Canceled = Omit<CancelCreateLotRequestPayloadGql, 'userErrors'>;
type Reviewed = Omit<ReviewCreateLotRequestPayloadGql, 'userErrors'>;

interface ListArgs {
  type?: string | null;
  requestor?: string | null;
  reviewer?: string | null;
  state?: string[] | null;
  archived?: boolean | null;
  currency?: string | null;
  sort?: string | null;
  page?: number | null;
  size?: number | null;
}

/** GraphQL arguments → the listing input; `sort` is written as in REST (`-created_at`). */
const listInputOf = ({ sort, ...rest }: ListArgs): Untrusted<RequestListInput> => ({ ...withoutNulls(rest), sort: sortArg(sort) });

const pageGql = (p: RequestPage): CreateLotRequestPageGql => ({
  items: p.items.map((r) => requestGql(r, p.pricing)),
  totalItems: p.total,
  page: p.page,
  size: p.size,
});

const connectionOf = (list: string, page: ConnectionArgs, info: GraphQLResolveInfo, read: (window: ReturnType<typeof pageWindow>) => Promise<RequestWindow>) => {
  const window = pageWindow(page, list, info);
  return read(window).then((found) => connectionOfWindow(window, found, (items) => items.map((r) => requestGql(r, found.pricing))));
};

/** A request connection's arguments as its page and its filter (the filters given). */
const connectionFilterOf = ({ first, after, last, before, ...filters }: CreateLotRequestConnectionArgs) => ({ page: { first, after, last, before }, filter: withoutNulls({ ...filters }) });

async function requestById(id: string, currency: string | null | undefined, { ctx, services }: Pick<GraphQLContext, 'ctx' | 'services'>): Promise<CreateLotRequestGql> {
  const { request, pricing } = await services.requests.get(ctx, { id, currency });
  return requestGql(request, pricing);
}
registerNode('CreateLotRequest', (id, context) => requestById(id, undefined, context));

@Resolver()
export class RequestsResolver {
  @Extensions(runsStatement())
  @Query(() => CreateLotRequestGql, { nullable: true, description: "GET /requests/{id}: for the requestor and staff of the request's platform" })
  async request(
    @Arg('id', () => ID) id: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('currency', () => String, { nullable: true, description: 'Show the prices in this currency' }) currency?: string | null,
  ): Promise<CreateLotRequestGql> {
    return requestById(id, currency, { ctx, services });
  }

  @Extensions(runsStatement())
  @Query(() => CreateLotRequestPageGql, {
    nullable: true,
    description: "GET /requests: the caller's own requests and those of the platforms whose staff it is",
    deprecationReason: 'Use `requestsConnection`',
  })
  async requests(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('type', () => String, { nullable: true, description: 'lots (the only type)' }) type?: string | null,
    @Arg('requestor', () => String, { nullable: true }) requestor?: string | null,
    @Arg('reviewer', () => String, { nullable: true, description: 'The reviewing platform' }) reviewer?: string | null,
    @Arg('state', () => [String], { nullable: true, description: 'pending, canceled, approved, rejected, permanently_rejected' }) state?: string[] | null,
    @Arg('archived', () => Boolean, { nullable: true }) archived?: boolean | null,
    @Arg('currency', () => String, { nullable: true }) currency?: string | null,
    @Arg('sort', () => String, { nullable: true, description: 'created_at or updated_at, a leading - for descending; -created_at by default' }) sort?: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'From 0' }) page?: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1 to 100; 15 by default' }) size?: number | null,
  ): Promise<CreateLotRequestPageGql> {
    return pageGql(await services.requests.list(ctx, listInputOf({ type, requestor, reviewer, state, archived, currency, sort, page, size })));
  }

  @Extensions(runsStatement())
  @Query(() => CreateLotRequestConnectionGql, { description: "The requests `requests` lists (the caller's own and those of the platforms whose staff it is), newest first" })
  requestsConnection(@Ctx() { ctx, services }: GraphQLContext, @Args() args: CreateLotRequestConnectionArgs, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<CreateLotRequestGql>> {
    const { page, filter } = connectionFilterOf(args);
    return connectionOf('Query.requestsConnection', page, info, (window) => services.requests.window(ctx, filter, window));
  }

  @Extensions(runsStatement())
  @Query(() => CreateLotRequestPageGql, {
    description: 'GET /accounts/{id}/create_lot_requests: for the account itself and staff of its platform',
    deprecationReason: 'Use `accountCreateLotRequestsConnection`',
  })
  async accountCreateLotRequests(
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('requestor', () => String, { nullable: true }) requestor?: string | null,
    @Arg('reviewer', () => String, { nullable: true }) reviewer?: string | null,
    @Arg('state', () => [String], { nullable: true }) state?: string[] | null,
    @Arg('archived', () => Boolean, { nullable: true }) archived?: boolean | null,
    @Arg('currency', () => String, { nullable: true }) currency?: string | null,
    @Arg('sort', () => String, { nullable: true }) sort?: string | null,
    @Arg('page', () => Int, { nullable: true }) page?: number | null,
    @Arg('size', () => Int, { nullable: true }) size?: number | null,
  ): Promise<CreateLotRequestPageGql> {
    const input = listInputOf({ requestor, reviewer, state, archived, currency, sort, page, size });
    return pageGql(await services.requests.listOfAccount(ctx, { ...input, accountId }));
  }

  @Extensions(runsStatement())
  @Query(() => CreateLotRequestConnectionGql, { description: 'The requests `accountCreateLotRequests` lists (filed or to be reviewed by the account), newest first: for the account itself and staff of its platform' })
  accountCreateLotRequestsConnection(
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() args: CreateLotRequestConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionSource<CreateLotRequestGql>> {
    const { page, filter } = connectionFilterOf(args);
    return connectionOf(`Query.accountCreateLotRequestsConnection:${accountId}`, page, info, (window) => services.requests.windowOfAccount(ctx, { ...filter, accountId }, window));
  }

  @Mutation(() => CreateLotRequestGql, { description: "PATCH /requests/{id}: staff of the request's platform approve or reject a pending request", deprecationReason: 'Use reviewCreateLotRequest' })
  async reviewRequest(
    @Arg('id', () => ID) id: string,
    @Arg('hash', () => String) hash: string,
    @Arg('state', () => String, { description: 'approved, rejected or permanently_rejected' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('rejectReason', () => String, { nullable: true }) rejectReason?: string | null,
  ): Promise<CreateLotRequestGql> {
    return requestGql(await services.requests.review(ctx, { id, hash, state, rejectReason: rejectReason ?? undefined }));
  }

  @Mutation(() => Boolean, { description: 'DELETE /requests/{id}: the requestor cancels a pending or rejected request', deprecationReason: 'Use cancelCreateLotRequest' })
  async cancelRequest(@Arg('id', () => ID) id: string, @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.requests.cancel(ctx, { id });
    return true;
  }

  @Mutation(() => CancelCreateLotRequestPayloadGql, { description: 'The requestor cancels a pending or rejected create-lot request; a refusal is answered in userErrors' })
  async cancelCreateLotRequest(
    @Arg('input', () => CancelCreateLotRequestInput) input: CancelCreateLotRequestInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CancelCreateLotRequestPayloadGql> {
    const { idempotencyKey, id } = input;
    return payloadOf<Canceled>({ requestId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'cancelCreateLotRequest', input: { id } }, asStored<Canceled>(), async () => {
        await services.requests.cancel(ctx, { id });
        return { requestId: id };
      }),
    );
  }

  @Mutation(() => ReviewCreateLotRequestPayloadGql, { description: "Staff of the request's platform approve or reject a pending request; a refusal is answered in userErrors" })
  async reviewCreateLotRequest(@Arg('input', () => ReviewCreateLotRequestInput) input: ReviewCreateLotRequestInput, @Ctx() { ctx, services }: GraphQLContext): Promise<ReviewCreateLotRequestPayloadGql> {
    const { idempotencyKey, id, hash, state } = input;
    const call = { id, hash, state, rejectReason: input.rejectReason ?? undefined };
    return payloadOf<Reviewed>({ createLotRequest: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'reviewCreateLotRequest', input: call }, asStored<Reviewed>(), async () => ({
        createLotRequest: requestGql(await services.requests.review(ctx, call)),
      })),
    );
  }
}
