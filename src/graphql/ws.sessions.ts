import type { WebSocket } from 'ws';

/** Close codes of an accepted socket that the server ends (documented in docs/decisions.md). */
export const CLOSE = {
  /** The bearer token the socket authenticated with expired, or its signed session ended. */
  expired: 4401,
  /** The account was blacklisted as stopped, or authentication at connect failed. */
  forbidden: 4403,
  /** More than WS_MAX_BUFFERED bytes waited to be sent: the client reads too slowly. */
  slow: 1013,
} as const;

// setTimeout holds at most 2^31-1 ms (about 24.8 days); longer tokens re-arm the timer.
const LONGEST_TIMER = 2 ** 31 - 1;

/**
 * The authenticated sockets of this instance by account, so that a stopped account's sockets
 * can be closed, and each socket closed when its token expires.
 */
export class WsSessions {
  private readonly byAccount = new Map<string, Set<WebSocket>>();

  /** Tracks the socket until it closes; at `expiresAt` (ms) it is closed with 4401 and `reason`. */
  track(accountId: string, socket: WebSocket, expiresAt: number, reason: string): void {
    const sockets = this.byAccount.get(accountId) ?? new Set<WebSocket>();
    this.byAccount.set(accountId, sockets);
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      const wait = expiresAt - Date.now();
      if (wait <= 0) socket.close(CLOSE.expired, reason);
      else timer = setTimeout(arm, Math.min(wait, LONGEST_TIMER)).unref();
    };
    arm();
    socket.once('close', () => {
      clearTimeout(timer);
      sockets.delete(socket);
      if (!sockets.size && this.byAccount.get(accountId) === sockets) this.byAccount.delete(accountId);
    });
  }

  /** Closes every socket of the account (a stopped account's subscriptions end). */
  closeAccount(accountId: string): void {
    for (const socket of this.byAccount.get(accountId) ?? []) socket.close(CLOSE.forbidden, 'account_blocked');
  }
}
