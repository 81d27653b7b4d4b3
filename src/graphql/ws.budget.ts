import type { WebSocket } from 'ws';
import { invalid, type DomainError } from '../core/errors';

export interface BudgetLimits {
  perAddress: number;
  perAccount: number;
}

/** The budgets, and GRAPHQL_MAX_COST as the most one subscription may cost. */
export interface ChargeLimits extends BudgetLimits {
  perOperation: number;
}

/** What one running subscription holds of the budgets. */
interface Charge {
  cost: number;
  address: string;
  accountId: string | null;
}

/**
 * Budgets of live cost per client address and per account: the sum of the costs (`checkCost`)
 * of the subscriptions they run. Counting subscriptions alone let one address hold 500 that each
 * selected a lot's bid history twelve times, so that one bid made 36 MB of messages; a budget of
 * cost bounds what one event can make an address or an account receive.
 *
 * A charge is kept per socket and subscribe message (its payload object: a client may reuse an id
 * once the operation ended, before graphql-ws reports the end of the first), and given back when
 * graphql-ws reports that operation complete (it does on every end once the operation ran: client
 * `complete`, stream end or error, socket close) or the socket closes, whichever comes first;
 * giving back twice is a no-op.
 */
export class WsBudget {
  private readonly bySocket = new Map<WebSocket, Map<object, Charge>>();
  private readonly byAddress = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();

  constructor(private readonly limits: ChargeLimits) {}

  /** Charges the subscription's cost, or answers why it is refused (and charges nothing). */
  charge(socket: WebSocket, message: object, cost: number, address: string, accountId: string | null): DomainError | null {
    const byAddress = (this.byAddress.get(address) ?? 0) + cost;
    if (byAddress > this.limits.perAddress) {
      return invalid('subscription_budget_exceeded', `the subscriptions of one address may cost ${this.limits.perAddress} at once; this one costs ${cost}, and ${byAddress - cost} are taken`);
    }
    const byAccount = accountId === null ? 0 : (this.byAccount.get(accountId) ?? 0) + cost;
    if (accountId !== null && byAccount > this.limits.perAccount) {
      return invalid('subscription_budget_exceeded', `the subscriptions of one account may cost ${this.limits.perAccount} at once; this one costs ${cost}, and ${byAccount - cost} are taken`);
    }
    // After the budgets: one the subscription alone is over names the limit the client meets on
    // the socket, and what it holds there already.
    if (cost > this.limits.perOperation) return invalid('query_too_costly', `the query costs ${cost}, more than the limit of ${this.limits.perOperation}`);
    // A socket already closed would never give it back.
    if (socket.readyState !== socket.OPEN) return null;
    let charges = this.bySocket.get(socket);
    if (!charges) {
      charges = new Map();
      this.bySocket.set(socket, charges);
      socket.once('close', () => this.releaseSocket(socket));
    }
    charges.set(message, { cost, address, accountId });
    this.byAddress.set(address, byAddress);
    if (accountId !== null) this.byAccount.set(accountId, byAccount);
    return null;
  }

  release(socket: WebSocket, message: object): void {
    const charges = this.bySocket.get(socket);
    const charge = charges?.get(message);
    if (!charges || !charge) return;
    charges.delete(message);
    this.giveBack(this.byAddress, charge.address, charge.cost);
    if (charge.accountId !== null) this.giveBack(this.byAccount, charge.accountId, charge.cost);
  }

  private releaseSocket(socket: WebSocket): void {
    for (const message of [...(this.bySocket.get(socket)?.keys() ?? [])]) this.release(socket, message);
    this.bySocket.delete(socket);
  }

  private giveBack(totals: Map<string, number>, key: string, cost: number): void {
    const left = (totals.get(key) ?? 0) - cost;
    if (left > 0) totals.set(key, left);
    else totals.delete(key);
  }
}
