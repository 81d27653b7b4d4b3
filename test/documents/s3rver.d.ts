/** The part of s3rver (a local S3-compatible server, ships no types) that the S3 adapter test uses. */
declare module 's3rver' {
  interface Options {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
