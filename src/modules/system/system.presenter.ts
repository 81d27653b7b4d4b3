import type { TopLevel } from '../../rest/document';
import type { PingInfo } from './system.service';

/** GET /: no resource, the service's facts in `meta`. */
export const presentPing = (ping: PingInfo): TopLevel => ({
  data: null,
  meta: {
    current_time: ping.currentTime,
    network_passphrase: ping.networkPassphrase,
    platforms: ping.platforms,
    master_account_id: ping.masterAccountId,
  },
});
