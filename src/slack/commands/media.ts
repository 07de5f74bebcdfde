import { t } from '../../blocks/text.js';
import { parseMediaFilters } from '../../domain/media.js';
import type { MediaDeps } from '../deps.js';
import { openMediaLibrary } from '../openers/media-library-view.js';
import type { VerbRun } from '../runtime/command-routes.js';

/**
 * `/conference media [filters]`: the media library modal, opened after the ack with the filters typed;
 * a filter it cannot read gets the help at once (`domain/media.ts` reads them).
 */
export const mediaVerb: VerbRun<{ args: string }, MediaDeps> = ({ args }, c, deps) => {
  const filters = parseMediaFilters(args);
  if (!filters.ok) return { say: c.usage(t(c.locale, filters.problem.key, filters.problem.values)) };
  return {
    later: () =>
      openMediaLibrary(deps, {
        user: c.user,
        triggerId: c.triggerId,
        client: c.client,
        log: c.log,
        text: args,
        channel: c.channel,
      }),
  };
};
