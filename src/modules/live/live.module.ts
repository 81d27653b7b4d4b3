import type { AppModule } from '../../app-modules';
import { LiveFeeds } from './live.feeds';
import { LiveResolver, ViewerChangeResolver } from './live.resolver';

declare module '../../services' {
  interface Services {
    feeds: LiveFeeds;
  }
}

export const liveModule: AppModule = {
  name: 'live',
  services: { feeds: (s, { config }) => new LiveFeeds(s.live, s.lots, s.participation, config.REPLAY_MAX_BIDS) },
  resolvers: [LiveResolver, ViewerChangeResolver],
};
