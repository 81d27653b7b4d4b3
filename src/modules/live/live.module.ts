import type { AppModule } from '../../app-modules';
import { LiveFeeds } from './live.feeds';
import { LiveResolver } from './live.resolver';

declare module '../../services' {
  interface Services {
    feeds: LiveFeeds;
  }
}

export const liveModule: AppModule = {
  name: 'live',
  services: { feeds: (s) => new LiveFeeds(s.live, s.lots) },
  resolvers: [LiveResolver],
};
