import type { RequestContext } from '../../core/context';
import { epochSeconds } from '../../core/time';
import { Account } from '../accounts';
import { AccountType } from '../../core/account-type';

export interface PingInfo {
  currentTime: number;
  networkPassphrase: string;
  platforms: string[];
  masterAccountId: string;
}

export class SystemService {
  constructor(
    private readonly networkPassphrase: string,
    private readonly masterAccountId: string,
  ) {}

  async ping(ctx: RequestContext): Promise<PingInfo> {
    const platforms = await ctx.em.find(
      Account,
      { accountType: AccountType.Platform },
      { fields: ['id'], orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return {
      currentTime: epochSeconds(),
      networkPassphrase: this.networkPassphrase,
      platforms: platforms.map((p) => p.id),
      masterAccountId: this.masterAccountId,
    };
  }
}
