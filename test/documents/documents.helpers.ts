import { deflateSync } from 'node:zlib';
import type { Keypair } from '@stellar/stellar-sdk';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';

/** The smallest files of each allowed type that their own parsers accept. */
export const FILES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  png: png1x1(),
  jpeg: Buffer.from(
    'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd3ffd9',
    'hex',
  ),
  html: Buffer.from('<!DOCTYPE html>\n<html><head><title>Invoice</title></head><body><p>Total: 100.00</p></body></html>\n'),
  elf: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120)]),
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('This program cannot be run in DOS mode.')]),
};

function png1x1(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

export interface Part {
  name: string;
  value: Buffer | string;
  fileName?: string;
  contentType?: string;
}

/** A multipart/form-data body and its content type. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadOptions {
  bytes?: Buffer;
  fileName?: string;
  contentType?: string;
  attributes?: Record<string, unknown>;
}

/** POST /documents signed by `keypair` (a public pdf by default). */
export function upload(t: TestApp, keypair: Keypair | null, opts: UploadOptions = {}): Promise<TestResponse> {
  const { body, contentType } = multipart([
    { name: 'file[attributes]', value: JSON.stringify(opts.attributes ?? { document_type: 'public' }) },
    { name: 'file', value: opts.bytes ?? FILES.pdf, fileName: opts.fileName ?? 'invoice.pdf', contentType: opts.contentType ?? 'application/pdf' },
  ]);
  const client = keypair ? t.client.as(keypair) : t.client;
  return client.request('POST', '/documents', { raw: body, contentType });
}

/** The id of a newly uploaded document; fails the test unless the upload succeeds. */
export async function uploadedId(t: TestApp, keypair: Keypair, opts: UploadOptions = {}): Promise<string> {
  const res = await upload(t, keypair, opts);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** GET of an absolute or relative link, answering status, headers and bytes. */
export async function fetchLink(t: TestApp, link: string): Promise<{ status: number; type: string | null; bytes: Buffer; json: any }> {
  const res = await fetch(new URL(link, t.baseUrl));
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown = null;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    /* bytes of a document */
  }
  return { status: res.status, type: res.headers.get('content-type'), bytes, json };
}
