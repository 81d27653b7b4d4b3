/** A page of a Relay connection, as the connection tests select it. */
export interface ConnectionPage<N = Record<string, unknown>> {
  edges: { cursor: string; node: N }[];
  nodes: N[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

/**
 * Walks a connection forwards (`first`/`after`) and backwards (`last`/`before`) by pages of
 * `size`, checking each page's pageInfo, its `nodes` against its edges and its totalCount
 * (backwards too with `countBackwards`), and expects each walk to meet `all`, in order.
 */
export async function expectWalksBothWays<P extends ConnectionPage<unknown>>(
  pageOf: (args: string) => Promise<P>,
  keysOf: (page: P) => string[],
  all: readonly string[],
  size: number,
  { countBackwards = false } = {},
): Promise<void> {
  const forwards: string[] = [];
  let after = '';
  for (let n = 0; ; n++) {
    const page = await pageOf(`first: ${size}${after}`);
    expect(page.totalCount).toBe(all.length);
    expect(page.nodes).toEqual(page.edges.map((e) => e.node));
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: n > 0, startCursor: page.edges[0].cursor, endCursor: page.edges[page.edges.length - 1].cursor });
    forwards.push(...keysOf(page));
    if (!page.pageInfo.hasNextPage) break;
    after = `, after: "${page.pageInfo.endCursor}"`;
  }
  expect(forwards).toEqual(all);
  const backwards: string[] = [];
  let before = '';
  for (let n = 0; ; n++) {
    const page = await pageOf(`last: ${size}${before}`);
    if (countBackwards) expect(page.totalCount).toBe(all.length);
    expect(page.pageInfo.hasNextPage).toBe(n > 0);
    backwards.unshift(...keysOf(page));
    if (!page.pageInfo.hasPreviousPage) break;
    before = `, before: "${page.pageInfo.startCursor}"`;
  }
  expect(backwards).toEqual(all);
}
