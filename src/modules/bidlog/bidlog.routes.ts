import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentBidLog } from './bidlog.presenter';
import { presentCheckpoint, presentConsistencyProof, presentInclusionProof, presentLogEntry, presentLogKey } from './tlog.presenter';
import { cosignInput } from './tlog.witnesses';

const size = { kind: 'integer' } as const;

export function bidLogRoutes(router: AppRouter): void {
  const { bidLog, transparencyLog, logWitnesses } = router.services;
  router.get('/lots/:id/bid_log', { summary: "The lot's hash-chained bid log and, once closed, its signed head (docs/bid-log.md)", response: 'bid_logs' }, async ({ ctx, params }) => ({ data: presentBidLog(await bidLog.get(ctx, { lotId: params.id })) }));
  router.get(
    '/log/checkpoint',
    {
      summary: "The transparency log's latest checkpoint, a C2SP signed note with the witnesses' co-signatures (docs/bid-log.md); `anchored=true`: the latest anchored on the ledger; `cosignatures=N`: the latest N witnesses co-signed",
      response: 'checkpoints',
      query: { plain: { anchored: { kind: 'boolean' }, cosignatures: size } },
      fields: 'query',
    },
    async ({ ctx, query }) => ({ data: presentCheckpoint(await transparencyLog.latest(ctx, { anchored: query.plain.anchored, cosignatures: query.plain.cosignatures })) }),
  );
  router.post(
    '/log/cosign',
    { summary: "A witness's C2SP tlog-cosignature/v1 co-signature of a checkpoint the log issued, kept and served with it (docs/bid-log.md); the signature is the credential", body: { type: 'cosignatures', input: cosignInput }, response: 'checkpoints' },
    async ({ ctx, body }) => {
      const { data } = parseDocument(inputDocument('cosignatures'), body);
      return { data: presentCheckpoint(await logWitnesses.cosign(ctx, { note: data.attributes?.note })) };
    },
  );
  router.get(
    '/log/checkpoints',
    { summary: 'The checkpoints of tree sizes from..to, oldest first, at most 100; every checkpoint is kept', response: ['checkpoints'], query: { plain: { from: size, to: size } }, fields: 'query' },
    async ({ ctx, query }) => ({ data: (await transparencyLog.between(ctx, { from: query.plain.from, to: query.plain.to })).map(presentCheckpoint) }),
  );
  router.get(
    '/log/proof/inclusion',
    {
      summary: "A leaf's inclusion proof (RFC 9162) in the tree of a checkpoint's size; the leaf given by `leaf_index`, or by `leaf_hash` (hex or base64, RFC 9162's get-proof-by-hash), whose index the answer gives",
      response: 'inclusion_proofs',
      query: { plain: { leaf_index: size, leaf_hash: { kind: 'string', max: 64 }, tree_size: { ...size, required: true } } },
      fields: 'query',
    },
    async ({ ctx, query }) => ({
      data: presentInclusionProof(await transparencyLog.inclusion(ctx, { leafIndex: query.plain.leaf_index, leafHash: query.plain.leaf_hash, treeSize: query.plain.tree_size })),
    }),
  );
  router.get(
    '/log/proof/consistency',
    { summary: 'The consistency proof (RFC 9162) from the tree of size `from` to the checkpoint of size `to`', response: 'consistency_proofs', query: { plain: { from: { ...size, required: true }, to: { ...size, required: true } } }, fields: 'query' },
    async ({ ctx, query }) => ({ data: presentConsistencyProof(await transparencyLog.consistency(ctx, { from: query.plain.from, to: query.plain.to })) }),
  );
  router.get(
    '/log/entries',
    { summary: "The log's leaves from index `from` (or a lot's leaves), at most 100, each as the exact text hashed", response: ['log_entries'], query: { plain: { from: { ...size, required: true }, lot_id: { kind: 'string', max: 20 } } }, fields: 'query' },
    async ({ ctx, query }) => ({ data: (await transparencyLog.entries(ctx, { from: query.plain.from, lotId: query.plain.lot_id })).map(presentLogEntry) }),
  );
  router.get('/log/keys', { summary: 'Every key the log has signed with, oldest first, with its period in tree sizes; the one without `until` signs now (docs/bid-log.md)', response: ['log_keys'] }, async ({ ctx }) => ({
    data: (await transparencyLog.keys(ctx)).map(presentLogKey),
  }));
}
