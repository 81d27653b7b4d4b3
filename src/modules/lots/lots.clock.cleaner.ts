import type { Cleaner } from '../../app-modules';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { LotClock } from './lots.clock';
import { LotType } from './lots.entity';
import { notClosedSql } from './lots.open';

const CLOCK_BATCH = 1000;

/** A `lots` row as the clock reads it (`CLOCK_COLUMNS`). */
interface ClockColumns {
  id: string;
  lot_type: LotType;
  end_time: string | Date;
}

const CLOCK_COLUMNS = sql`id, lot_type, end_time`;

/**
 * Schedules the jobs of pending lots whose notices are still ahead (idempotent: a waiting job of
 * the same lot and end is kept). It catches lots created while no queue ran (`JOBS=off`, or a
 * stop between a commit and its scheduling).
 */
export function scheduleLotClocks(clock: LotClock): Cleaner {
  return {
    kind: 'cleaner',
    name: 'lot clocks',
    async run(em) {
      let after = '0';
      let scheduled = 0;
      for (;;) {
        const rows = await rowsOf<ClockColumns>(
          em,
          sql`select ${CLOCK_COLUMNS} from lots
            where ${notClosedSql(sql`lots`)} and lot_type in (${sql.list([LotType.Eng, LotType.NoAuction])})
              and end_time - make_interval(secs => ${clock.offsets.finishingNoticeSeconds}) > ${new Date()} and id > ${after}
            order by id limit ${CLOCK_BATCH}`,
        );
        if (!rows.length) return scheduled;
        await clock.lotTimesSet(rows.map((r) => ({ id: String(r.id), lotType: r.lot_type, endTime: new Date(r.end_time) })));
        scheduled += rows.length;
        after = String(rows[rows.length - 1].id);
      }
    },
  };
}
