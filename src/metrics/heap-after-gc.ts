import { constants, PerformanceObserver, type NodeGCPerformanceDetail, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

/**
 * The V8 heap the live objects take, read right after each full (mark-compact) collection. Heap
 * used at any other moment also counts garbage not yet collected, so it saws with the load; this
 * figure grows only when something keeps what it no longer needs (a leak), which is what a soak
 * asks. The young generation is left out: it refills from the first allocation after the
 * collection, whatever the live set.
 */
let afterLastFullGc: number | null = null;
let observer: PerformanceObserver | null = null;

function oldGenerationUsed(): number {
  return getHeapSpaceStatistics()
    .filter((space) => !space.space_name.startsWith('new_'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

// @types/node leaves `detail` off PerformanceEntry; a gc entry's is a NodeGCPerformanceDetail.
const isFullGc = (entry: PerformanceEntry) => (entry as PerformanceEntry & { detail?: NodeGCPerformanceDetail }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;

/** Starts watching the collections of this process; once per process, however many apps it runs. */
export function watchFullGc(): void {
  if (observer) return;
  observer = new PerformanceObserver((list) => {
    if (list.getEntries().some(isFullGc)) afterLastFullGc = oldGenerationUsed();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Bytes of heap in use after the latest full collection since `watchFullGc`; null before the first. */
export function heapUsedAfterFullGc(): number | null {
  return afterLastFullGc;
}
